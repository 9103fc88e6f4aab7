/**
 * The signer-authentication tests' package (issue 21; docs/decisions/signer-authentication.md), made through the
 * real routes: Tina signs with an access code and carries an asserted identity, Lars with an email code, both
 * at once. The caller sets the clock first.
 */
import { Readable } from "node:stream";
import { eq } from "drizzle-orm";
import { expect } from "vitest";
import { POST as createFromTemplateRoute } from "@/app/api/v1/packages/from-template/route";
import { POST as sendRoute } from "@/app/api/v1/packages/[packageId]/send/route";
import type { Db } from "@/server/db/client";
import { recipientSessions } from "@/server/db/schema";
import { createActiveTemplate } from "@/server/domain/packages/test-support/fixtures";
import { getFileStore } from "@/server/storage/get-file-store";
import { createTestKey, createTestOrg } from "./factories";
import { callJson } from "./http";

export const ACCESS_CODE = "blue-heron-42";

export type TBody<T = Record<string, unknown>> = { data: T; error?: string; details?: Record<string, string[]> };
export type TSession = { id: string; email: string; authentication: { method: string; locked: boolean }; identity: unknown };
export type TPkg = { id: string; recipientSessions: TSession[]; documents: { id: string }[] };

/** An organisation with a key and the test template (createActiveTemplate), its original stored. */
export async function signerTestOrg(db: Db) {
  const org = await createTestOrg(db);
  const key = (await createTestKey(db, org)).value;
  const tpl = await createActiveTemplate(db, org);
  await (await getFileStore()).put("files/lease", Readable.from([Buffer.from("%PDF-1.7\n%test\n")]), { contentType: "application/pdf" });
  return { org, key, tpl };
}

/** Creates the unordered "Lease 4B" package from the test template for these recipients and sends it. */
export async function sendLeasePackage(key: string, templateId: string, recipients: Record<string, unknown>[]) {
  const created = await callJson<TBody<TPkg>>(createFromTemplateRoute, { key, body: { templateId, title: "Lease 4B", sequential: false, recipients } });
  expect(created.status).toBe(201);
  const packageId = created.body.data.id;
  const sent = await callJson<TBody<TPkg>>(sendRoute, { key, params: { packageId }, body: {} });
  expect(sent.status).toBe(200);
  return { packageId, created: created.body, sent: sent.body };
}

/** Tina with an access code and an asserted identity, Lars with an email code; both can sign at once. */
export async function sentSignerPackage(db: Db) {
  const base = await signerTestOrg(db);
  const { packageId, created, sent } = await sendLeasePackage(base.key, base.tpl.templateId, [
    {
      email: "tina@example.com",
      name: "Tina Tenant",
      roleIndex: 0,
      authentication: { method: "ACCESS_CODE", accessCode: ` ${ACCESS_CODE} ` },
      identity: { method: "SSO (Okta)", assertionId: "8f3a2c9e", authenticatedAt: "2031-05-01T11:02:00+02:00" },
    },
    { email: "lars@example.com", name: "Lars Landlord", roleIndex: 1, authentication: { method: "EMAIL_CODE" } },
  ]);
  const [tina, lars] = sent.data.recipientSessions;
  return { ...base, packageId, created, tina: tina!, lars: lars!, documentId: sent.data.documents[0]!.id };
}

/** A recipient session's row. */
export async function sessionRow(db: Db, id: string) {
  return (await db.select().from(recipientSessions).where(eq(recipientSessions.id, id)))[0]!;
}
