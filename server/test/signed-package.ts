/** For the sealing tests (through the API routes, hence here and not in a domain test-support): a package every recipient has signed, whose original is really stored, so sealing is due. */
import { Readable } from "node:stream";
import { and, eq } from "drizzle-orm";
import { expect } from "vitest";
import { POST as createFromTemplateRoute } from "@/app/api/v1/packages/from-template/route";
import { POST as sendRoute } from "@/app/api/v1/packages/[packageId]/send/route";
import type { Db } from "@/server/db/client";
import { organisations, packageFields, recipientSessions, workspaces } from "@/server/db/schema";
import { completeSession } from "@/server/domain/signing/complete-session";
import { openSession } from "@/server/domain/signing/open-session";
import { createActiveTemplate } from "@/server/domain/packages/test-support/fixtures";
import { getFileStore } from "@/server/storage/get-file-store";
import { createTestKey, createTestOrg } from "@/server/test/factories";
import { callJson } from "@/server/test/http";
import { makeOriginal, makeSignaturePng } from "@/server/test/sealing-fixtures";

export const TYPED_NAME = "Борис Пастернак";

/**
 * A package from a two-role template whose original (1 page, stored at `files/lease`) is signed by both recipients.
 * `test`: in a test workspace (the organisation's default workspace made one, its key `fsk_test_…`);
 * `allowance`: the organisation's package allowance before the send.
 */
export async function signedPackage(db: Db, opts: { test?: boolean; allowance?: number } = {}) {
  const org = await createTestOrg(db);
  if (opts.test) await db.update(workspaces).set({ isTest: true }).where(eq(workspaces.id, org.workspaceId));
  if (opts.allowance !== undefined) await db.update(organisations).set({ packageAllowance: opts.allowance }).where(eq(organisations.id, org.organisationId));
  const key = (await createTestKey(db, org, { test: opts.test })).value;
  const tpl = await createActiveTemplate(db, org);
  const store = await getFileStore();
  await store.put("files/lease", Readable.from([await makeOriginal(1)]), { contentType: "application/pdf" });
  const created = await callJson<{ data: { id: string } }>(createFromTemplateRoute, {
    key,
    body: {
      templateId: tpl.templateId,
      title: "Lease 4B",
      recipients: [
        { email: "tina@example.com", name: "Tina Tenant", roleIndex: 0 },
        { email: "lars@example.com", name: TYPED_NAME, roleIndex: 1 },
      ],
    },
  });
  expect(created.status).toBe(201);
  const pkgId = created.body.data.id;
  const sent = await callJson<{ data: { recipientSessions: { id: string }[] } }>(sendRoute, { key, params: { packageId: pkgId }, body: {} });
  const [first, second] = sent.body.data.recipientSessions;
  const recipient = (sessionId: string) => ({ kind: "recipient" as const, sessionId, clientAddress: "203.0.113.9", userAgent: "Mozilla/5.0 (test)" });

  // Recipient one draws (the PNG is stored, the field keeps its key); recipient two types a Cyrillic name.
  await store.put("signatures/one", Readable.from([makeSignaturePng()]), { contentType: "image/png" });
  await openSession(db, recipient(first!.id));
  await db
    .update(packageFields)
    .set({ valueStorageKey: "signatures/one", valueKind: "drawn" })
    .where(and(eq(packageFields.sessionId, first!.id), eq(packageFields.type, "signature")));
  // Recipient one's browser reported Paris (stored at consent; see signing.test.ts); recipient two's nothing.
  await db.update(recipientSessions).set({ timeZone: "Europe/Paris" }).where(eq(recipientSessions.id, first!.id));
  await completeSession(db, recipient(first!.id));
  await db.update(packageFields).set({ value: TYPED_NAME, valueKind: "typed" }).where(eq(packageFields.sessionId, second!.id));
  const last = await completeSession(db, recipient(second!.id));
  return { org, key, pkgId, last };
}
