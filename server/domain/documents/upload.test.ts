/**
 * The upload PUT (`/uploads/{token}`), through its route handler: the bytes are stored, checked and recorded
 * once; the URL is single use (410 after), expires after two hours (injected clock), and is unknown → 404.
 * A body longer (413) or shorter (422) than `fileSize`, a PNG or text renamed .pdf, a truncated or encrypted
 * PDF, or a DOCX declared as a PDF are refused with a clear message, keep nothing, leave the document
 * AWAITING_UPLOAD and the URL usable. Two PUTs racing on one URL: exactly one wins.
 * Hostile PDFs (2,001 pages, an xref that loops, nesting that overflows the parser) are refused the same way by
 * the inspector's child process, the server (this process) goes on answering, and the temporary copy the
 * child read is removed after every upload, accepted or refused, also when the body failed halfway.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as list from "@/app/api/v1/templates/[templateId]/documents/route";
import { auditEvents, documents, storedFiles, uploadTokens } from "@/server/db/schema";
import { INSPECT_MESSAGES } from "@/server/documents-io/inspect-file";
import { setClock } from "@/server/lib/clock";
import { useTestDb } from "@/server/test/db";
import { createTestKey, createTestOrg } from "@/server/test/factories";
import { callJson } from "@/server/test/http";
import { getFileStore } from "@/server/storage/get-file-store";
import { createHash } from "node:crypto";
import { DOCUMENT_MESSAGES, DOCX_TYPE } from "./messages";
import { BODY_CUT_OFF } from "@/server/http/client-body";
import { putUpload } from "@/server/http/test-support/put-upload";
import { createTestTemplate, DEEPLY_NESTED_PDF, LOOPING_XREF_PDF, makePdf, manyPagesPdf } from "./test-support/fixtures";

const t = useTestDb();
const DOCX = readFileSync(path.join(import.meta.dirname, "../../documents-io/fixtures/hello.docx"));
const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(200, 7)]);

// os.tmpdir() reads TMPDIR at each call: this file's uploads put their temporary copies here, where we can count them.
let tmpRoot = "";
let previousTmpdir: string | undefined;
beforeAll(() => {
  previousTmpdir = process.env.TMPDIR;
  tmpRoot = mkdtempSync(path.join(os.tmpdir(), "foliosign-upload-test-"));
  process.env.TMPDIR = tmpRoot;
});
afterAll(() => {
  rmSync(tmpRoot, { recursive: true, force: true });
  if (previousTmpdir === undefined) delete process.env.TMPDIR;
  else process.env.TMPDIR = previousTmpdir;
});
const leftoverCopies = () => readdirSync(tmpRoot).filter((name) => name.startsWith("foliosign-upload-"));

type TAdded = { data: { document: { id: string }; uploadUrl: string } };

async function addDocument(fileSize: number, contentType = "application/pdf") {
  const org = await createTestOrg(t.db);
  const key = (await createTestKey(t.db, org)).value;
  const templateId = await createTestTemplate(t.db, org);
  const res = await callJson<TAdded>(list.POST, { key, params: { templateId }, body: { name: "Contract", fileSize, contentType } });
  expect(res.status).toBe(201);
  return { org, documentId: res.body.data.document.id, url: res.body.data.uploadUrl };
}

async function documentRow(id: string) {
  const [row] = await t.db.select().from(documents).where(eq(documents.id, id));
  return row!;
}

function streamOf(bytes: Buffer, chunk = 1000): ReadableStream<Uint8Array> {
  let at = 0;
  return new ReadableStream({
    pull(controller) {
      if (at >= bytes.length) return controller.close();
      controller.enqueue(new Uint8Array(bytes.subarray(at, at + chunk)));
      at += chunk;
    },
  });
}

describe("PUT /uploads/{token}", () => {
  it("stores a streamed PDF, records its SHA-256 and pages, marks it UPLOADED and the URL used, with an audit event", async () => {
    const pdf = await makePdf(["a4", "letter"]);
    const { org, documentId, url } = await addDocument(pdf.length);
    const res = await putUpload(url, streamOf(pdf));
    expect(res.status).toBe(200);
    expect(leftoverCopies()).toEqual([]);
    const sha256 = createHash("sha256").update(pdf).digest("hex");
    expect(res.body.data).toMatchObject({
      id: documentId,
      uploadState: "UPLOADED",
      sha256,
      pageCount: 2,
      pageSizes: [
        { width: 595.28, height: 841.89 },
        { width: 612, height: 792 },
      ],
    });
    const row = await documentRow(documentId);
    expect(await (await getFileStore()).stat(row.storageKey!)).toMatchObject({ size: pdf.length, sha256, contentType: "application/pdf" });
    const [token] = await t.db.select().from(uploadTokens).where(eq(uploadTokens.documentId, documentId));
    expect(token!.usedAt).not.toBeNull();
    const [audit] = await t.db.select().from(auditEvents).where(eq(auditEvents.action, "document.uploaded"));
    expect(audit).toMatchObject({
      organisationId: org.organisationId,
      subjectId: documentId,
      actorUserId: null,
      data: expect.objectContaining({ sha256, pageCount: 2 }),
    });

    const again = await putUpload(url, pdf);
    expect(again).toMatchObject({ status: 410, body: { error: DOCUMENT_MESSAGES.uploadUsed } });
    expect((await documentRow(documentId)).storageKey).toBe(row.storageKey);
    expect(await t.db.select().from(storedFiles)).toHaveLength(1);
  });

  it("accepts a DOCX declared as DOCX (no pages until converted)", async () => {
    const { documentId, url } = await addDocument(DOCX.length, DOCX_TYPE);
    const res = await putUpload(url, DOCX);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ uploadState: "UPLOADED", contentType: DOCX_TYPE, pageCount: null });
    expect((await documentRow(documentId)).sha256).toBe(createHash("sha256").update(DOCX).digest("hex"));
  });

  it("answers 404 for an unknown token and 410 once the URL has expired (two hours, injected clock)", async () => {
    expect(await putUpload("http://localhost:3000/uploads/nope", Buffer.from("x"))).toMatchObject({
      status: 404,
      body: { error: DOCUMENT_MESSAGES.uploadNotFound },
    });
    let clock = new Date("2030-01-01T12:00:00Z").getTime();
    setClock(() => new Date(clock));
    const pdf = await makePdf();
    const { documentId, url } = await addDocument(pdf.length);
    clock += 2 * 60 * 60 * 1000;
    const res = await putUpload(url, pdf);
    expect(res).toMatchObject({ status: 410, body: { error: DOCUMENT_MESSAGES.uploadExpired } });
    expect((await documentRow(documentId)).uploadState).toBe("AWAITING_UPLOAD");
    clock -= 1000;
    expect((await putUpload(url, pdf)).status).toBe(200);
  });

  it("refuses a body longer (413) or shorter (422) than fileSize, keeps nothing, and the same URL still takes the right bytes", async () => {
    const pdf = await makePdf();
    const { documentId, url } = await addDocument(pdf.length);
    const longer = await putUpload(url, Buffer.concat([pdf, Buffer.from("extra")]));
    expect(longer).toMatchObject({ status: 413, body: { error: DOCUMENT_MESSAGES.uploadLonger(pdf.length) } });
    const shorter = await putUpload(url, pdf.subarray(0, pdf.length - 10));
    expect(shorter).toMatchObject({ status: 422, body: { error: DOCUMENT_MESSAGES.uploadShorter(pdf.length, pdf.length - 10) } });
    const empty = await putUpload(url, null);
    expect(empty).toMatchObject({ status: 422, body: { error: DOCUMENT_MESSAGES.uploadShorter(pdf.length, 0) } });
    expect(await t.db.select().from(storedFiles)).toHaveLength(0);
    expect(leftoverCopies()).toEqual([]);
    expect((await documentRow(documentId)).uploadState).toBe("AWAITING_UPLOAD");
    expect((await putUpload(url, pdf)).status).toBe(200);
  });

  it("removes the temporary copy when the body fails halfway (the client went away)", async () => {
    const pdf = await makePdf();
    const { documentId, url } = await addDocument(pdf.length);
    let sent = 0;
    const failing = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent >= 200) return controller.error(new Error("connection reset"));
        controller.enqueue(new Uint8Array(pdf.subarray(sent, sent + 100)));
        sent += 100;
      },
    });
    // The client's failure, not the server's: 400 (it was a 500).
    const res = await putUpload(url, failing);
    expect(res).toMatchObject({ status: 400, body: { error: BODY_CUT_OFF } });
    expect(leftoverCopies()).toEqual([]);
    expect(await t.db.select().from(storedFiles)).toHaveLength(0);
    expect((await documentRow(documentId)).uploadState).toBe("AWAITING_UPLOAD");
  });

  it.each([
    ["a PNG renamed .pdf", async () => PNG, INSPECT_MESSAGES.unknown],
    ["text renamed .pdf", async () => Buffer.from("Dear customer, please sign.\n".repeat(20)), INSPECT_MESSAGES.unknown],
    ["a truncated PDF", async () => (await makePdf(["a4", "a4"])).subarray(0, 600), INSPECT_MESSAGES.pdfTruncated],
    ["an encrypted PDF", async () => makePdf(["a4"], true), INSPECT_MESSAGES.pdfEncrypted],
    ["a DOCX declared as a PDF", async () => DOCX, DOCUMENT_MESSAGES.wrongKind("DOCX", "application/pdf")],
    ["a PDF of 2,001 pages (the limit is 2,000)", async () => manyPagesPdf(2001), INSPECT_MESSAGES.pdfTooManyPages(2000)],
    ["a PDF whose xref chain loops (the parser throws)", async () => LOOPING_XREF_PDF, INSPECT_MESSAGES.pdfDamaged],
    ["a PDF of 200,000 nested arrays (the parser throws)", async () => DEEPLY_NESTED_PDF, INSPECT_MESSAGES.pdfDamaged],
  ])("refuses %s with 422 and the inspector's message; nothing is kept", async (_label, build, message) => {
    const bytes = await build();
    const { documentId, url } = await addDocument(bytes.length);
    const res = await putUpload(url, bytes);
    expect(res).toMatchObject({ status: 422, body: { error: message } });
    expect(await t.db.select().from(storedFiles)).toHaveLength(0);
    const row = await documentRow(documentId);
    expect(row).toMatchObject({ uploadState: "AWAITING_UPLOAD", storageKey: null, sha256: null });
    const [token] = await t.db.select().from(uploadTokens).where(eq(uploadTokens.documentId, documentId));
    expect(token!.usedAt).toBeNull();
    expect(leftoverCopies()).toEqual([]);
    // The server (this process) is still here and a good file still uploads.
    const good = await makePdf(["a4"]);
    const again = await addDocument(good.length);
    expect((await putUpload(again.url, good)).status).toBe(200);
  });

  it("refuses a PDF declared as a DOCX", async () => {
    const pdf = await makePdf();
    const { url } = await addDocument(pdf.length, DOCX_TYPE);
    expect(await putUpload(url, pdf)).toMatchObject({ status: 422, body: { error: DOCUMENT_MESSAGES.wrongKind("PDF", DOCX_TYPE) } });
  });

  it("lets exactly one of two concurrent PUTs on one URL succeed; the other gets 410 and its copy is deleted", async () => {
    const pdf = await makePdf(["a4", "a4", "a4"]);
    const { documentId, url } = await addDocument(pdf.length);
    const results = await Promise.all([putUpload(url, streamOf(pdf, 512)), putUpload(url, streamOf(pdf, 512))]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 410]);
    const files = await t.db.select().from(storedFiles);
    expect(files.map((f) => f.key)).toEqual([(await documentRow(documentId)).storageKey]);
  });
});
