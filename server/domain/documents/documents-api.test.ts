/**
 * The template documents API through the real route handlers (public /api/v1 and the app's twins): add (an
 * upload URL whose token is stored only hashed, 413 over MAX_DOCUMENT_BYTES, a library document used by
 * reference and UPLOADED at once), list, delete (with its fields; a shared stored file survives), convert
 * (400 for a PDF, 409 before upload, a real DOCX through LibreOffice, 502 when the converter is missing), the
 * CREATE gate, the edit lock's 409, and tenancy: another workspace gets 404 on every route.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { Readable } from "node:stream";
import { and, eq } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import * as appList from "@/app/api/app/templates/[templateId]/documents/route";
import * as appFile from "@/app/api/app/templates/[templateId]/documents/[documentId]/file/route";
import * as one from "@/app/api/v1/templates/[templateId]/documents/[documentId]/route";
import * as convert from "@/app/api/v1/templates/[templateId]/documents/[documentId]/convert/route";
import * as list from "@/app/api/v1/templates/[templateId]/documents/route";
import { setSessionLookup } from "@/server/auth/app-route";
import { WORKSPACE_COOKIE } from "@/server/auth/workspace-cookie";
import { auditEvents, documents, editLocks, libraryDocuments, templateFields, templateRoles, uploadTokens, users } from "@/server/db/schema";
import { CONVERT_MESSAGES } from "@/server/documents-io/convert-docx";
import { resetEnvCache } from "@/server/env";
import { setClock } from "@/server/lib/clock";
import { sha256Hex } from "@/server/lib/crypto";
import { newId } from "@/server/lib/ids";
import { getFileStore } from "@/server/storage/get-file-store";
import { expectOtherWorkspaceGets404 } from "@/server/test/cross-workspace";
import { useTestDb } from "@/server/test/db";
import { createTestKey, createTestOrg, createTestRole, createTestWorkspace, type TTestOrg } from "@/server/test/factories";
import { callJson, callRoute } from "@/server/test/http";
import { DOCUMENT_MESSAGES, DOCX_TYPE } from "./messages";
import { putUpload, tokenOf } from "@/server/http/test-support/put-upload";
import { createTestTemplate, makePdf } from "./test-support/fixtures";

const t = useTestDb();
afterEach(() => {
  setSessionLookup(undefined);
  delete process.env.SOFFICE_PATH;
  delete process.env.MAX_DOCUMENT_BYTES;
  resetEnvCache();
});

const DOCX = readFileSync(path.join(import.meta.dirname, "../../documents-io/fixtures/hello.docx"));

type TDoc = {
  id: string;
  name: string;
  uploadState: string;
  contentType: string;
  pageCount: number | null;
  sha256: string | null;
  convertedFromDocx: boolean;
  fileSize: number;
};
type TAdded = { data: { document: TDoc; uploadUrl: string | null; uploadUrlExpiresAt: string | null }; error?: string; details?: Record<string, string[]> };

async function setup() {
  const org = await createTestOrg(t.db);
  const key = (await createTestKey(t.db, org)).value;
  const templateId = await createTestTemplate(t.db, org);
  return { org, key, templateId };
}

function add(key: string, templateId: string, body: unknown) {
  return callJson<TAdded>(list.POST, { key, params: { templateId }, body });
}

async function uploaded(key: string, templateId: string, bytes: Buffer, contentType = "application/pdf") {
  const added = await add(key, templateId, { name: "Contract.pdf", fileSize: bytes.length, contentType });
  expect(added.status).toBe(201);
  const put = await putUpload(added.body.data.uploadUrl!, bytes);
  expect(put.status).toBe(200);
  return added.body.data.document.id;
}

/** A library document as T3's operations will make it: a row and its stored file. */
async function createLibraryDocument(org: Pick<TTestOrg, "organisationId" | "workspaceId">, workspaceId = org.workspaceId) {
  const bytes = await makePdf(["letter", "a4"]);
  const id = newId("lib");
  const storageKey = `library/${id}`;
  const stored = await (await getFileStore()).put(storageKey, Readable.from([bytes]), { contentType: "application/pdf" });
  await t.db.insert(libraryDocuments).values({
    id,
    organisationId: org.organisationId,
    workspaceId,
    name: "NDA",
    fileSize: bytes.length,
    storageKey,
    sha256: stored.sha256,
    pageCount: 2,
    pageSizes: [
      { width: 612, height: 792 },
      { width: 595.28, height: 841.89 },
    ],
  });
  return { id, storageKey, sha256: stored.sha256 };
}

describe("POST /api/v1/templates/{templateId}/documents", () => {
  it("adds a document awaiting upload with an absolute single-use URL valid two hours; only the token's hash is stored", async () => {
    const { org, key, templateId } = await setup();
    setClock(() => new Date("2030-01-01T12:00:00.000Z"));
    const res = await add(key, templateId, { name: "Contract.pdf", fileSize: 1234 });
    expect(res.status).toBe(201);
    const { document, uploadUrl, uploadUrlExpiresAt } = res.body.data;
    expect(document).toMatchObject({
      uploadState: "AWAITING_UPLOAD",
      contentType: "application/pdf",
      fileSize: 1234,
      sha256: null,
      pageCount: null,
      convertedFromDocx: false,
    });
    expect(uploadUrl).toMatch(/^http:\/\/localhost:3000\/uploads\/[A-Za-z0-9_-]{43}$/);
    expect(uploadUrlExpiresAt).toBe("2030-01-01T14:00:00.000Z");
    const [token] = await t.db.select().from(uploadTokens).where(eq(uploadTokens.documentId, document.id));
    expect(token!.tokenHash).toBe(sha256Hex(tokenOf(uploadUrl!)));
    expect(JSON.stringify(token)).not.toContain(tokenOf(uploadUrl!));
    const [audit] = await t.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.subjectId, document.id), eq(auditEvents.action, "document.added")));
    expect(audit).toMatchObject({ organisationId: org.organisationId, actorUserId: org.userId, subjectType: "document" });
    expect(audit!.apiKeyId).not.toBeNull();
  });

  it("answers 413 naming the limit when fileSize is over MAX_DOCUMENT_BYTES (default 25 MB), and follows the variable", async () => {
    const { key, templateId } = await setup();
    expect((await add(key, templateId, { name: "a.pdf", fileSize: 26_214_400 })).status).toBe(201);
    const over = await add(key, templateId, { name: "a.pdf", fileSize: 26_214_401 });
    expect(over.status).toBe(413);
    expect(over.body.error).toBe(DOCUMENT_MESSAGES.tooLarge(26_214_400));
    process.env.MAX_DOCUMENT_BYTES = "2048";
    resetEnvCache();
    expect((await add(key, templateId, { name: "a.pdf", fileSize: 2049 })).body.error).toBe(DOCUMENT_MESSAGES.tooLarge(2048));
  });

  it.each([
    ["no name", { fileSize: 10 }, "name"],
    ["an image type", { name: "a.png", fileSize: 10, contentType: "image/png" }, "contentType"],
    ["an empty file", { name: "a.pdf", fileSize: 0 }, "fileSize"],
  ])("answers 422 on %s, naming the field", async (_label, body, field) => {
    const { key, templateId } = await setup();
    const res = await add(key, templateId, body);
    expect(res.status).toBe(422);
    expect(Object.keys(res.body.details as Record<string, string[]>)).toEqual([field]);
  });

  it("adds a library document by reference to its stored file, UPLOADED at once, without an upload URL", async () => {
    const { org, key, templateId } = await setup();
    const library = await createLibraryDocument(org);
    const res = await add(key, templateId, { libraryDocumentId: library.id });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ uploadUrl: null, uploadUrlExpiresAt: null });
    expect(res.body.data.document).toMatchObject({ uploadState: "UPLOADED", pageCount: 2, sha256: library.sha256, libraryDocumentId: library.id, name: "NDA" });
    const [row] = await t.db.select().from(documents).where(eq(documents.id, res.body.data.document.id));
    expect(row!.storageKey).toBe(library.storageKey);
    expect(await t.db.select().from(uploadTokens)).toHaveLength(0);

    // Deleting the template's copy releases only its reference: the library's file stays.
    expect((await callJson(one.DELETE, { key, params: { templateId, documentId: row!.id } })).status).toBe(200);
    expect(await (await getFileStore()).stat(library.storageKey)).not.toBeNull();

    const renamed = await add(key, templateId, { libraryDocumentId: library.id, name: "Our NDA" });
    expect(renamed.body.data.document.name).toBe("Our NDA");
  });

  it("answers 404 for a library document of another workspace, and for an unknown template", async () => {
    const { org, key, templateId } = await setup();
    const sibling = await createTestWorkspace(t.db, org.organisationId, "other");
    const library = await createLibraryDocument(org, sibling);
    const res = await add(key, templateId, { libraryDocumentId: library.id });
    expect(res.status).toBe(404);
    expect(res.body.error).toBe("Library document not found");
    expect((await add(key, "tpl_missing", { name: "a.pdf", fileSize: 10 })).body.error).toBe("Template not found");
  });
});

describe("GET and DELETE template documents", () => {
  it("lists documents in the order they were added", async () => {
    const { key, templateId } = await setup();
    for (const name of ["one.pdf", "two.pdf", "three.pdf"]) await add(key, templateId, { name, fileSize: 10 });
    const res = await callJson<{ data: { documents: { name: string }[] } }>(list.GET, { key, params: { templateId } });
    expect(res.status).toBe(200);
    expect(res.body.data.documents.map((d) => d.name)).toEqual(["one.pdf", "two.pdf", "three.pdf"]);
    expect((await callJson(list.GET, { key, params: { templateId: "tpl_missing" } })).status).toBe(404);
  });

  it("deletes a document with its fields, its upload URL and its stored file", async () => {
    const { org, key, templateId } = await setup();
    const documentId = await uploaded(key, templateId, await makePdf());
    const [doc] = await t.db.select().from(documents).where(eq(documents.id, documentId));
    const roleId = newId("trl");
    await t.db.insert(templateRoles).values({ id: roleId, templateId, position: 0, name: "Signer" });
    await t.db
      .insert(templateFields)
      .values({ id: newId("fld"), templateId, documentId, roleId, type: "signature", page: 1, x: 10, y: 10, width: 100, height: 30 });

    const res = await callJson<{ data: unknown }>(one.DELETE, { key, params: { templateId, documentId } });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ id: documentId, deleted: true });
    expect(await t.db.select().from(templateFields)).toHaveLength(0);
    expect(await t.db.select().from(uploadTokens)).toHaveLength(0);
    expect(await (await getFileStore()).stat(doc!.storageKey!)).toBeNull();
    const [audit] = await t.db.select().from(auditEvents).where(eq(auditEvents.action, "document.deleted"));
    expect(audit).toMatchObject({ subjectId: documentId, organisationId: org.organisationId, data: expect.objectContaining({ fieldsDeleted: 1 }) });

    expect((await callJson(one.DELETE, { key, params: { templateId, documentId } })).status).toBe(404);
  });

  it("answers 404 for a document of another template of the same workspace", async () => {
    const { org, key, templateId } = await setup();
    const otherTemplate = await createTestTemplate(t.db, org);
    const documentId = (await add(key, otherTemplate, { name: "a.pdf", fileSize: 10 })).body.data.document.id;
    const res = await callJson<{ error: string }>(one.DELETE, { key, params: { templateId, documentId } });
    expect(res.status).toBe(404);
    expect(res.body.error).toBe("Document not found");
  });
});

describe("POST …/documents/{documentId}/convert", () => {
  it("answers 400 for a PDF and 409 for a DOCX not uploaded yet", async () => {
    const { key, templateId } = await setup();
    const pdfId = (await add(key, templateId, { name: "a.pdf", fileSize: 10 })).body.data.document.id;
    const pdf = await callJson<{ error: string }>(convert.POST, { key, params: { templateId, documentId: pdfId } });
    expect(pdf).toMatchObject({ status: 400, body: { error: DOCUMENT_MESSAGES.onlyDocx } });
    const docxId = (await add(key, templateId, { name: "a.docx", fileSize: 10, contentType: DOCX_TYPE })).body.data.document.id;
    const early = await callJson<{ error: string }>(convert.POST, { key, params: { templateId, documentId: docxId } });
    expect(early).toMatchObject({ status: 409, body: { error: DOCUMENT_MESSAGES.notUploaded } });
  });

  it("answers 502 with the converter's message when SOFFICE_PATH names a missing binary, and leaves the DOCX as it was", async () => {
    const { key, templateId } = await setup();
    const documentId = await uploaded(key, templateId, DOCX, DOCX_TYPE);
    process.env.SOFFICE_PATH = "/nonexistent/soffice";
    resetEnvCache();
    const res = await callJson<{ error: string }>(convert.POST, { key, params: { templateId, documentId } });
    expect(res).toMatchObject({ status: 502, body: { error: CONVERT_MESSAGES.missing } });
    const [row] = await t.db.select().from(documents).where(eq(documents.id, documentId));
    expect(row).toMatchObject({ contentType: DOCX_TYPE, sourceStorageKey: null });
  });

  it("converts an uploaded DOCX with LibreOffice: the PDF becomes the document, the DOCX is kept", async () => {
    const { key, templateId } = await setup();
    const documentId = await uploaded(key, templateId, DOCX, DOCX_TYPE);
    const [before] = await t.db.select().from(documents).where(eq(documents.id, documentId));
    const res = await callJson<{ data: TDoc }>(convert.POST, { key, params: { templateId, documentId } });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ contentType: "application/pdf", uploadState: "UPLOADED", convertedFromDocx: true });
    expect(res.body.data.pageCount).toBeGreaterThanOrEqual(1);
    const [after] = await t.db.select().from(documents).where(eq(documents.id, documentId));
    expect(after).toMatchObject({ sourceStorageKey: before!.storageKey, sourceSha256: before!.sha256, fileSize: res.body.data.fileSize });
    expect(after!.storageKey).not.toBe(before!.storageKey);
    const stored = await (await getFileStore()).stat(after!.storageKey!);
    expect(stored).toMatchObject({ sha256: after!.sha256, contentType: "application/pdf" });
    expect((await (await getFileStore()).stat(before!.storageKey!))?.sha256).toBe(before!.sha256);
    // Converting again: it is a PDF now.
    expect((await callJson(convert.POST, { key, params: { templateId, documentId } })).status).toBe(400);
    // Deleting it releases both files.
    await callJson(one.DELETE, { key, params: { templateId, documentId } });
    expect(await (await getFileStore()).stat(before!.storageKey!)).toBeNull();
    expect(await (await getFileStore()).stat(after!.storageKey!)).toBeNull();
  }, 120_000);
});

describe("gates, the edit lock and tenancy", () => {
  it("lets a USE key read but answers 403 CREATE required on every change", async () => {
    const { org, key, templateId } = await setup();
    const documentId = (await add(key, templateId, { name: "a.docx", fileSize: 10, contentType: DOCX_TYPE })).body.data.document.id;
    const roleId = await createTestRole(t.db, org.organisationId, { templateAccess: "USE" });
    const useKey = (await createTestKey(t.db, org, { roleId })).value;
    expect((await callJson(list.GET, { key: useKey, params: { templateId } })).status).toBe(200);
    for (const [route, body] of [
      [list.POST, { name: "b.pdf", fileSize: 10 }],
      [one.DELETE, undefined],
      [convert.POST, undefined],
    ] as const) {
      const res = await callJson<{ error: string }>(route, { key: useKey, params: { templateId, documentId }, body });
      expect(res).toMatchObject({ status: 403, body: { error: "Insufficient template access: CREATE required" } });
    }
    expect(await t.db.select().from(documents)).toHaveLength(1);
  });

  it("answers 409 naming the member who holds the app's edit lock, on add, delete and convert", async () => {
    const { org, key, templateId } = await setup();
    const documentId = await uploaded(key, templateId, DOCX, DOCX_TYPE);
    const holder = newId("usr");
    await t.db.insert(users).values({ id: holder, email: "ed@acme.test", name: "Ed Itor", passwordHash: null });
    await t.db.insert(editLocks).values({
      id: newId("lck"),
      organisationId: org.organisationId,
      resourceType: "template",
      resourceId: templateId,
      userId: holder,
      expiresAt: new Date(Date.now() + 60_000),
    });
    for (const [route, body] of [
      [list.POST, { name: "b.pdf", fileSize: 10 }],
      [one.DELETE, undefined],
      [convert.POST, undefined],
    ] as const) {
      const res = await callJson<{ error: string }>(route, { key, params: { templateId, documentId }, body });
      expect(res.status).toBe(409);
      expect(res.body.error).toContain("Ed Itor (ed@acme.test)");
    }
  });

  it("answers 404 to another workspace's key on every document route", async () => {
    const { org, key, templateId } = await setup();
    const documentId = await uploaded(key, templateId, await makePdf());
    const docxId = await uploaded(key, templateId, DOCX, DOCX_TYPE);
    await expectOtherWorkspaceGets404(t.db, list.GET, { org, ownKey: key, params: { templateId } });
    await expectOtherWorkspaceGets404(t.db, list.POST, { org, params: { templateId }, body: { name: "b.pdf", fileSize: 10 } });
    // The convert control would run LibreOffice; a PDF answers 400 before that, which proves it reached the document.
    await expectOtherWorkspaceGets404(t.db, convert.POST, { org, ownKey: key, params: { templateId, documentId } });
    await expectOtherWorkspaceGets404(t.db, convert.POST, { org, params: { templateId, documentId: docxId } });
    await expectOtherWorkspaceGets404(t.db, one.DELETE, { org, params: { templateId, documentId } });
    expect(await t.db.select().from(documents)).toHaveLength(2);
  });
});

describe("the app's routes", () => {
  async function asOwner(org: TTestOrg, workspaceId?: string) {
    setSessionLookup(async () => ({ userId: org.userId, organisationId: org.organisationId }));
    return workspaceId ? { cookie: `${WORKSPACE_COOKIE}=${workspaceId}` } : undefined;
  }

  it("adds and lists through the session door, and streams the stored PDF with its length, privately", async () => {
    const { org, templateId } = await setup();
    await asOwner(org);
    const bytes = await makePdf(["a4", "letter"]);
    const added = await callJson<TAdded>(appList.POST, { params: { templateId }, body: { name: "Deal", fileSize: bytes.length } });
    expect(added.status).toBe(201);
    const documentId = added.body.data.document.id;
    const early = await callJson<{ error: string }>(appFile.GET, { params: { templateId, documentId } });
    expect(early).toMatchObject({ status: 409, body: { error: DOCUMENT_MESSAGES.notUploaded } });
    expect((await putUpload(added.body.data.uploadUrl!, bytes)).status).toBe(200);

    const res = await callRoute(appFile.GET, { params: { templateId, documentId } });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/pdf");
    expect(res.headers.get("content-length")).toBe(String(bytes.length));
    expect(res.headers.get("cache-control")).toBe("private, no-store");
    expect(res.headers.get("x-request-id")).toBeTruthy();
    expect(Buffer.from(await res.arrayBuffer()).equals(bytes)).toBe(true);

    const listed = await callJson<{ data: { documents: { id: string }[] } }>(appList.GET, { params: { templateId } });
    expect(listed.body.data.documents.map((d) => d.id)).toEqual([documentId]);
  });

  it("answers 409 for a DOCX not converted, and 404 for a document of another workspace", async () => {
    const { org, key, templateId } = await setup();
    const docxId = await uploaded(key, templateId, DOCX, DOCX_TYPE);
    const pdfId = await uploaded(key, templateId, await makePdf());
    await asOwner(org);
    expect((await callJson<{ error: string }>(appFile.GET, { params: { templateId, documentId: docxId } })).body.error).toBe(DOCUMENT_MESSAGES.notPdf);

    // The owner switched to another workspace of theirs: the document is not found there.
    const sibling = await createTestWorkspace(t.db, org.organisationId, "sibling");
    const headers = await asOwner(org, sibling);
    const cross = await callRoute(appFile.GET, { params: { templateId, documentId: pdfId }, headers });
    expect(cross.status).toBe(404);
    expect(cross.headers.get("content-type")).toContain("application/json");
    expect((await callRoute(appList.GET, { params: { templateId }, headers })).status).toBe(404);
  });
});
