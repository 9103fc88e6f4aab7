/**
 * The signing tests' set-up and calls, through the real route handlers: a sent two-signer package from the test
 * template, a recipient's signing token, an image upload as the signing page sends it, and a small real PNG.
 */
import { Readable } from "node:stream";
import { expect } from "vitest";
import { POST as createFromTemplateRoute } from "@/app/api/v1/packages/from-template/route";
import { POST as sendRoute } from "@/app/api/v1/packages/[packageId]/send/route";
import { POST as signingUrlRoute } from "@/app/api/v1/packages/[packageId]/signing-url/route";
import { PUT as imageRoute } from "@/app/api/app/sign/[token]/fields/[fieldId]/image/route";
import type { Db } from "@/server/db/client";
import { createActiveTemplate } from "@/server/domain/packages/test-support/fixtures";
import { CLIENT_ADDRESS_HEADER } from "@/server/http/steps/client-address";
import { createTestKey, createTestOrg } from "@/server/test/factories";
import { callJson } from "@/server/test/http";
import { encodePng } from "@/server/test/png";
import { getFileStore } from "@/server/storage/get-file-store";

type TBody<T> = { data: T };

/**
 * A package from the test template (createActiveTemplate: the stored original `files/lease`) for a tenant (role
 * 0) and a landlord (role 1), with the merge field customerName, sent. `sequential` as the API takes it (its
 * default when left out).
 */
export async function sentTwoSignerPackage(db: Db, options: { sequential?: boolean } = {}) {
  const org = await createTestOrg(db);
  const key = (await createTestKey(db, org)).value;
  const tpl = await createActiveTemplate(db, org);
  await (await getFileStore()).put("files/lease", Readable.from([Buffer.from("%PDF-1.7\n%test\n")]), { contentType: "application/pdf" });
  const created = await callJson<TBody<{ id: string }>>(createFromTemplateRoute, {
    key,
    body: {
      templateId: tpl.templateId,
      title: "Lease 4B",
      ...options,
      recipients: [
        { email: "tenant@example.com", name: "Tina Tenant", roleIndex: 0 },
        { email: "landlord@example.com", name: "Lars Landlord", roleIndex: 1 },
      ],
      mergeFields: { customerName: "Tina T." },
    },
  });
  const packageId = created.body.data.id;
  const sent = await callJson<TBody<{ recipientSessions: { id: string }[] }>>(sendRoute, { key, params: { packageId }, body: {} });
  const [first, second] = sent.body.data.recipientSessions;
  return { key, packageId, first: first!.id, second: second!.id };
}

/** The token of a recipient session's signing link (the signing-URL operation answers 200). */
export async function signingToken(key: string, packageId: string, sessionId: string): Promise<string> {
  const res = await callJson<TBody<{ url: string }>>(signingUrlRoute, { key, params: { packageId }, body: { sessionId } });
  expect(res.status).toBe(200);
  return res.body.data.url.split("/sign/")[1]!;
}

/** An image PUT as the signing page sends it (raw PNG, same-origin, a client address); its status and JSON. */
export async function putFieldImage<T>(token: string, fieldId: string, bytes: Buffer, kind = "drawn") {
  const req = new Request(new URL(`/api/app/sign/${token}/fields/${fieldId}/image?kind=${kind}`, "http://localhost:3000"), {
    method: "PUT",
    headers: { "content-type": "image/png", [CLIENT_ADDRESS_HEADER]: "127.0.0.1", "sec-fetch-site": "same-origin" },
    body: new Uint8Array(bytes),
  });
  const res = await imageRoute(req, { params: Promise.resolve({ token, fieldId }) });
  return { status: res.status, body: (await res.json()) as T };
}

/** A real PNG of `width`×1 RGBA pixels, stored uncompressed: transparent black, or random (`noise`). */
export function stripPng(width = 2, noise = false): Buffer {
  const byte = () => (noise ? Math.floor(Math.random() * 256) : 0);
  return encodePng(width, 1, () => [byte(), byte(), byte(), byte()], 0);
}
