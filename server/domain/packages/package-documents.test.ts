/**
 * Package documents on the real upload flow (the documents capability with a package owner): add with a
 * single-use upload URL, PUT the bytes (checked), list in order, send; a DOCX is refused at send until
 * converted (convertPackageDocument, real LibreOffice when installed); changes only while DRAFT (409 after);
 * another member's edit lock is 409; a package the key cannot see is 404; delete removes the document.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { POST as createRoute } from "@/app/api/v1/packages/route";
import { GET as getRoute } from "@/app/api/v1/packages/[packageId]/route";
import { POST as sendRoute } from "@/app/api/v1/packages/[packageId]/send/route";
import * as docsRoute from "@/app/api/v1/packages/[packageId]/documents/route";
import * as oneDocRoute from "@/app/api/v1/packages/[packageId]/documents/[documentId]/route";
import { POST as convertRoute } from "@/app/api/v1/packages/[packageId]/documents/[documentId]/convert/route";
import { auditEvents, editLocks, users } from "@/server/db/schema";
import { DOCX_TYPE } from "@/server/domain/documents/messages";
import { makePdf } from "@/server/domain/documents/test-support/fixtures";
import { putUpload } from "@/server/http/test-support/put-upload";
import { newId } from "@/server/lib/ids";
import { useTestDb } from "@/server/test/db";
import { createTestKey, createTestOrg } from "@/server/test/factories";
import { callJson } from "@/server/test/http";

const t = useTestDb();
const DOCX = readFileSync(path.join(import.meta.dirname, "../../documents-io/fixtures/hello.docx"));
const hasSoffice = (() => {
  try {
    return readFileSync("/usr/bin/soffice").length > 0;
  } catch {
    return false;
  }
})();

type TDoc = { id: string; uploadState: string; contentType: string; position?: number; convertedFromDocx: boolean; pageCount: number | null };
type TAdded = { data: { document: TDoc; uploadUrl: string | null }; error?: string };
type TPkg = { data: { id: string; status: string; documents: TDoc[] }; error?: string };

async function setup() {
  const org = await createTestOrg(t.db);
  const key = (await createTestKey(t.db, org)).value;
  const created = await callJson<TPkg>(createRoute, { key, body: { title: "NDA", recipients: [{ email: "a@example.com" }] } });
  expect(created.status).toBe(201);
  return { org, key, packageId: created.body.data.id };
}

async function addUploaded(key: string, packageId: string, bytes: Buffer, contentType = "application/pdf") {
  const added = await callJson<TAdded>(docsRoute.POST, { key, params: { packageId }, body: { name: "doc", fileSize: bytes.length, contentType } });
  expect(added.status, added.body.error).toBe(201);
  expect(added.body.data.document.uploadState).toBe("AWAITING_UPLOAD");
  const put = await putUpload(added.body.data.uploadUrl!, bytes);
  expect(put.status, put.body.error).toBe(200);
  return added.body.data.document.id;
}

describe("package documents", () => {
  it("add → PUT → list → send; then 409 for any change of a sent package's documents", async () => {
    const s = await setup();
    const pdf = await makePdf(["a4", "letter"]);
    const first = await addUploaded(s.key, s.packageId, pdf);
    const second = await addUploaded(s.key, s.packageId, await makePdf());
    const list = await callJson<{ data: { documents: TDoc[] } }>(docsRoute.GET, { key: s.key, params: { packageId: s.packageId } });
    expect(list.body.data.documents.map((d) => [d.id, d.position, d.uploadState, d.pageCount])).toEqual([
      [first, 0, "UPLOADED", 2],
      [second, 1, "UPLOADED", 1],
    ]);
    const audit = await t.db.select().from(auditEvents).where(eq(auditEvents.subjectId, first));
    expect(audit.map((a) => a.action)).toEqual(["document.added", "document.uploaded"]);

    const sent = await callJson<TPkg>(sendRoute, { key: s.key, params: { packageId: s.packageId }, body: {} });
    expect(sent.status, sent.body.error).toBe(200);
    const late = await callJson<TAdded>(docsRoute.POST, { key: s.key, params: { packageId: s.packageId }, body: { name: "x", fileSize: 10 } });
    expect(late.status).toBe(409);
    expect(late.body.error).toBe("Documents can be changed only while the package is a DRAFT");
    const del = await callJson(oneDocRoute.DELETE, { key: s.key, params: { packageId: s.packageId, documentId: first } });
    expect(del.status).toBe(409);
  });

  it("a DOCX blocks the send (409) until converted; delete removes a document; 413 over the limit", async () => {
    const s = await setup();
    const docx = await addUploaded(s.key, s.packageId, DOCX, DOCX_TYPE);
    const refused = await callJson<TPkg>(sendRoute, { key: s.key, params: { packageId: s.packageId }, body: {} });
    expect(refused.status).toBe(409);
    const notDocx = await addUploaded(s.key, s.packageId, await makePdf());
    expect((await callJson(convertRoute, { key: s.key, params: { packageId: s.packageId, documentId: notDocx } })).status).toBe(400);
    expect((await callJson(oneDocRoute.DELETE, { key: s.key, params: { packageId: s.packageId, documentId: notDocx } })).status).toBe(200);
    const big = await callJson(docsRoute.POST, { key: s.key, params: { packageId: s.packageId }, body: { name: "big", fileSize: 26 * 1024 * 1024 } });
    expect(big.status).toBe(413);
    if (!hasSoffice) return;
    const converted = await callJson<{ data: TDoc; error?: string }>(convertRoute, { key: s.key, params: { packageId: s.packageId, documentId: docx } });
    expect(converted.status, converted.body.error).toBe(200);
    expect(converted.body.data).toMatchObject({ contentType: "application/pdf", convertedFromDocx: true });
    const sent = await callJson<TPkg>(sendRoute, { key: s.key, params: { packageId: s.packageId }, body: {} });
    expect(sent.status, sent.body.error).toBe(200);
    const got = await callJson<TPkg>(getRoute, { key: s.key, params: { packageId: s.packageId } });
    expect(got.body.data.documents.map((d) => [d.id, d.position])).toEqual([[docx, 0]]);
  }, 120_000);

  it("another member's edit lock is 409; a key that cannot see the package gets 404", async () => {
    const s = await setup();
    const userId = newId("usr");
    await t.db.insert(users).values({ id: userId, email: `${userId}@example.com`, name: "Editor", passwordHash: null });
    await t.db.insert(editLocks).values({
      id: newId("lck"),
      organisationId: s.org.organisationId,
      resourceType: "package",
      resourceId: s.packageId,
      userId,
      expiresAt: new Date("2100-01-01T00:00:00Z"),
    });
    const locked = await callJson<TAdded>(docsRoute.POST, { key: s.key, params: { packageId: s.packageId }, body: { name: "x", fileSize: 10 } });
    expect(locked.status).toBe(409);
    expect(locked.body.error).toContain("is editing this package");
    const other = await createTestOrg(t.db, "Other");
    const otherKey = (await createTestKey(t.db, other)).value;
    expect((await callJson(docsRoute.GET, { key: otherKey, params: { packageId: s.packageId } })).status).toBe(404);
  });
});
