/**
 * The document library through its real handlers, on both doors: the public search (op 50: by name,
 * case-insensitive, literal wildcards, at most 50, tenancy), and the app's management — a streamed upload that
 * keeps only a PDF that opens (413 and 422 leave nothing behind), rename, delete (the stored file stays while a
 * template document still points at it) — with the template-access gate and a workspace boundary (404).
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import { PDF } from "@libpdf/core";
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { GET as listApi } from "@/app/api/v1/library/documents/route";
import { GET as listApp, PUT as upload } from "@/app/api/app/library/documents/route";
import { DELETE as remove, PATCH as rename } from "@/app/api/app/library/documents/[libraryDocumentId]/route";
import { auditEvents, documents, libraryDocuments, storedFiles, templates } from "@/server/db/schema";
import { INSPECT_MESSAGES } from "@/server/documents-io/inspect-file";
import { newId } from "@/server/lib/ids";
import { callApp } from "@/server/test/app-http";
import { createTestMember } from "@/server/test/actors";
import { useTestDb } from "@/server/test/db";
import { createTestKey, createTestOrg, createTestRole, createTestWorkspace, type TTestOrg } from "@/server/test/factories";
import { callJson } from "@/server/test/http";
import type { TLibraryDocument } from "./schemas";
import { NOT_A_PDF } from "./upload-library-document";

const t = useTestDb();

async function twoPagePdf(): Promise<Uint8Array> {
  const pdf = PDF.create();
  pdf.addPage({ size: "a4" });
  pdf.addPage({ size: "letter" });
  return pdf.save();
}

const owner = (org: TTestOrg) => ({ userId: org.userId, organisationId: org.organisationId });
type TData<T> = { data: T; error?: string; details?: Record<string, string[]> };

async function uploadPdf(org: TTestOrg, name: string, bytes?: Uint8Array, workspaceId?: string) {
  const res = await callApp<TData<TLibraryDocument>>(upload, { as: owner(org), query: { name }, rawBody: bytes ?? (await twoPagePdf()), workspaceId });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data;
}

/** Rows straight into the table, for list tests that need many documents without uploading each. */
async function insertRows(org: TTestOrg, names: string[], workspaceId = org.workspaceId) {
  await t.db.insert(libraryDocuments).values(
    names.map((name) => ({
      id: newId("libd"),
      organisationId: org.organisationId,
      workspaceId,
      name,
      fileSize: 10,
      storageKey: `library/${newId("x")}`,
      sha256: "0".repeat(64),
      pageCount: 1,
      pageSizes: [{ width: 612, height: 792 }],
    })),
  );
}

async function storedFileCount() {
  return (await t.db.select({ key: storedFiles.key }).from(storedFiles)).length;
}

describe("GET /api/v1/library/documents", () => {
  it("lists by name, searches case-insensitively (wildcards literal), caps at 50", async () => {
    const org = await createTestOrg(t.db);
    const key = await createTestKey(t.db, org);
    expect(await callJson(listApi, { key: key.value })).toMatchObject({ status: 200, body: { data: { documents: [] } } });

    await insertRows(org, ["NDA mutual", "Offer letter", "nda one-way", "50% deposit", "a_b", "axb"]);
    const all = await callJson<TData<{ documents: TLibraryDocument[] }>>(listApi, { key: key.value });
    expect(all.body.data.documents.map((d) => d.name)).toEqual(["50% deposit", "a_b", "axb", "NDA mutual", "nda one-way", "Offer letter"]);

    const nda = await callJson<TData<{ documents: TLibraryDocument[] }>>(listApi, { key: key.value, query: { search: "NdA" } });
    expect(nda.body.data.documents.map((d) => d.name)).toEqual(["NDA mutual", "nda one-way"]);
    const underscore = await callJson<TData<{ documents: TLibraryDocument[] }>>(listApi, { key: key.value, query: { search: "a_b" } });
    expect(underscore.body.data.documents.map((d) => d.name)).toEqual(["a_b"]);
    const percent = await callJson<TData<{ documents: TLibraryDocument[] }>>(listApi, { key: key.value, query: { search: "%" } });
    expect(percent.body.data.documents.map((d) => d.name)).toEqual(["50% deposit"]);

    await insertRows(
      org,
      Array.from({ length: 60 }, (_, i) => `Bulk ${String(i).padStart(2, "0")}`),
    );
    const capped = await callJson<TData<{ documents: TLibraryDocument[] }>>(listApi, { key: key.value, query: { search: "bulk" } });
    expect(capped.body.data.documents).toHaveLength(50);
    expect(capped.body.data.documents[0]!.name).toBe("Bulk 00");
    expect(capped.body.data.documents[49]!.name).toBe("Bulk 49");
    expect(capped.body.data.documents[0]).not.toHaveProperty("storageKey");
  });

  it("shows only the key's workspace; a search too long is 422", async () => {
    const org = await createTestOrg(t.db);
    const siblingId = await createTestWorkspace(t.db, org.organisationId, "sibling");
    await insertRows(org, ["Mine"]);
    await insertRows(org, ["Theirs"], siblingId);
    const key = await createTestKey(t.db, org);
    const listed = await callJson<TData<{ documents: TLibraryDocument[] }>>(listApi, { key: key.value });
    expect(listed.body.data.documents.map((d) => d.name)).toEqual(["Mine"]);
    const tooLong = await callJson(listApi, { key: key.value, query: { search: "x".repeat(201) } });
    expect(tooLong.status).toBe(422);
    expect(tooLong.body).toMatchObject({ details: { search: [expect.any(String)] } });
  });
});

describe("the app's library", () => {
  it("uploads a PDF: stored, inspected, audited, listed", async () => {
    const org = await createTestOrg(t.db);
    const bytes = await twoPagePdf();
    const doc = await uploadPdf(org, "Mutual NDA", bytes);
    expect(doc).toMatchObject({
      name: "Mutual NDA",
      contentType: "application/pdf",
      fileSize: bytes.byteLength,
      sha256: createHash("sha256").update(bytes).digest("hex"),
      pageCount: 2,
      pageSizes: [
        { width: expect.closeTo(595.28, 0), height: expect.closeTo(841.89, 0) },
        { width: 612, height: 792 },
      ],
    });
    const [row] = await t.db.select().from(libraryDocuments).where(eq(libraryDocuments.id, doc.id));
    const [file] = await t.db.select().from(storedFiles).where(eq(storedFiles.key, row!.storageKey));
    expect(file).toMatchObject({ size: bytes.byteLength, sha256: doc.sha256 });
    const audits = await t.db.select().from(auditEvents).where(eq(auditEvents.subjectId, doc.id));
    expect(audits.map((a) => [a.action, a.actorUserId])).toEqual([["library.document_uploaded", org.userId]]);
    const listed = await callApp<TData<{ documents: TLibraryDocument[] }>>(listApp, { as: owner(org) });
    expect(listed.body.data.documents.map((d) => d.id)).toEqual([doc.id]);
  });

  it("refuses anything but a whole PDF with the inspector's message, keeping nothing", async () => {
    const org = await createTestOrg(t.db);
    const pdf = await twoPagePdf();
    const docx = readFileSync(path.join(process.cwd(), "server/documents-io/fixtures/hello.docx"));
    const cases: [Uint8Array | string, string][] = [
      ["just some text, renamed .pdf", INSPECT_MESSAGES.unknown],
      [pdf.subarray(0, pdf.byteLength - 40), INSPECT_MESSAGES.pdfTruncated],
      [new Uint8Array(docx), NOT_A_PDF],
      ["", INSPECT_MESSAGES.empty],
    ];
    for (const [rawBody, message] of cases) {
      const res = await callApp(upload, { as: owner(org), query: { name: "Bad" }, rawBody });
      expect(res, message).toEqual({ status: 422, body: { error: message } });
    }
    expect(await t.db.select().from(libraryDocuments)).toEqual([]);
    expect(await storedFileCount()).toBe(0);
  });

  it("413 beyond the limit or the announced length, 422 short of it, 422 without a name", async () => {
    const org = await createTestOrg(t.db);
    const pdf = await twoPagePdf();
    const over = await callApp(upload, { as: owner(org), query: { name: "Big" }, rawBody: pdf, headers: { "content-length": String(26 * 1024 * 1024) } });
    expect(over).toEqual({ status: 413, body: { error: `File exceeds ${25 * 1024 * 1024} bytes` } });
    const longer = await callApp(upload, { as: owner(org), query: { name: "Longer" }, rawBody: pdf, headers: { "content-length": "100" } });
    expect(longer).toEqual({ status: 413, body: { error: "File exceeds 100 bytes" } });
    const shorter = await callApp(upload, {
      as: owner(org),
      query: { name: "Shorter" },
      rawBody: pdf,
      headers: { "content-length": String(pdf.byteLength + 5) },
    });
    expect(shorter).toEqual({ status: 422, body: { error: `File is ${pdf.byteLength} bytes but ${pdf.byteLength + 5} were declared` } });
    const unnamed = await callApp(upload, { as: owner(org), query: { name: "  " }, rawBody: pdf });
    expect(unnamed).toMatchObject({ status: 422, body: { details: { name: ["Enter a name"] } } });
    expect(await t.db.select().from(libraryDocuments)).toEqual([]);
    expect(await storedFileCount()).toBe(0);
  });

  it("renames (422 on an empty name) and deletes, with audit events; another workspace's document is 404", async () => {
    const org = await createTestOrg(t.db);
    const doc = await uploadPdf(org, "Draft");
    const renamed = await callApp<TData<TLibraryDocument>>(rename, { as: owner(org), params: { libraryDocumentId: doc.id }, body: { name: "  Final  " } });
    expect(renamed).toMatchObject({ status: 200, body: { data: { id: doc.id, name: "Final" } } });
    const empty = await callApp(rename, { as: owner(org), params: { libraryDocumentId: doc.id }, body: { name: "" } });
    expect(empty).toMatchObject({ status: 422, body: { details: { name: ["Enter a name"] } } });

    const siblingId = await createTestWorkspace(t.db, org.organisationId, "sibling");
    const p = { libraryDocumentId: doc.id };
    expect((await callApp(rename, { as: owner(org), params: p, body: { name: "X" }, workspaceId: siblingId })).status).toBe(404);
    expect(await callApp(remove, { as: owner(org), params: p, workspaceId: siblingId })).toEqual({
      status: 404,
      body: { error: "Library document not found" },
    });

    expect(await callApp(remove, { as: owner(org), params: p })).toEqual({ status: 200, body: { data: { id: doc.id, deleted: true } } });
    expect((await callApp(remove, { as: owner(org), params: p })).status).toBe(404);
    expect(await storedFileCount()).toBe(0);
    const actions = (await t.db.select().from(auditEvents).where(eq(auditEvents.subjectId, doc.id))).map((a) => a.action).sort();
    expect(actions).toEqual(["library.document_deleted", "library.document_updated", "library.document_uploaded"]);
  });

  it("keeps the stored file while a template document still references it", async () => {
    const org = await createTestOrg(t.db);
    const doc = await uploadPdf(org, "Shared");
    const [row] = await t.db.select().from(libraryDocuments).where(eq(libraryDocuments.id, doc.id));
    const templateId = newId("tpl");
    await t.db.insert(templates).values({ id: templateId, organisationId: org.organisationId, workspaceId: org.workspaceId, name: "T" });
    await t.db.insert(documents).values({
      id: newId("doc"),
      organisationId: org.organisationId,
      workspaceId: org.workspaceId,
      templateId,
      name: "Shared",
      contentType: "application/pdf",
      fileSize: doc.fileSize,
      uploadState: "UPLOADED",
      storageKey: row!.storageKey,
      libraryDocumentId: doc.id,
    });
    expect((await callApp(remove, { as: owner(org), params: { libraryDocumentId: doc.id } })).status).toBe(200);
    expect(await t.db.select().from(libraryDocuments)).toEqual([]);
    const kept = await t.db
      .select()
      .from(storedFiles)
      .where(and(eq(storedFiles.key, row!.storageKey)));
    expect(kept).toHaveLength(1);
  });

  it("reads for any member; managing needs template access CREATE; nobody signed in is 401", async () => {
    const org = await createTestOrg(t.db);
    const doc = await uploadPdf(org, "Doc");
    const useRole = await createTestRole(t.db, org.organisationId, { templateAccess: "USE" });
    const member = await createTestMember(t.db, org, useRole);
    const as = { userId: member.user.id, organisationId: org.organisationId };
    expect((await callApp(listApp, { as })).status).toBe(200);
    const refused = { status: 403, body: { error: "Insufficient template access: CREATE required" } };
    expect(await callApp(upload, { as, query: { name: "X" }, rawBody: await twoPagePdf() })).toEqual(refused);
    expect(await callApp(rename, { as, params: { libraryDocumentId: doc.id }, body: { name: "X" } })).toEqual(refused);
    expect(await callApp(remove, { as, params: { libraryDocumentId: doc.id } })).toEqual(refused);
    expect((await callApp(listApp, { as: null })).status).toBe(401);

    const createRole = await createTestRole(t.db, org.organisationId, { templateAccess: "CREATE" });
    const creator = await createTestMember(t.db, org, createRole);
    const res = await callApp(rename, {
      as: { userId: creator.user.id, organisationId: org.organisationId },
      params: { libraryDocumentId: doc.id },
      body: { name: "By creator" },
    });
    expect(res.status).toBe(200);
  });

  it("the public list is per workspace: a key of a sibling workspace sees nothing", async () => {
    const org = await createTestOrg(t.db);
    await uploadPdf(org, "Only here");
    const siblingId = await createTestWorkspace(t.db, org.organisationId, "other");
    const siblingKey = await createTestKey(t.db, org, { workspaceId: siblingId });
    const res = await callJson<TData<{ documents: unknown[] }>>(listApi, { key: siblingKey.value });
    expect(res.body.data.documents).toEqual([]);
  });
});
