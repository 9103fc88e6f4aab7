/**
 * Issue 24, item 8, through the real route handlers: a 1 MB DOCX that expands to 1 GiB (generated here) is
 * refused at upload with 422 and a message saying why; the document stays AWAITING_UPLOAD, nothing is stored,
 * and the URL can still take a real DOCX. A conversion that overruns CONVERT_TIMEOUT_MS (a converter that
 * never finishes, with the limit set to 300 ms) answers 422 "The document took too long to convert…", not 502,
 * and leaves the DOCX as it was. On PGlite, and PostgreSQL with DATABASE_URL.
 */
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { count, eq } from "drizzle-orm";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import * as convert from "@/app/api/v1/templates/[templateId]/documents/[documentId]/convert/route";
import * as list from "@/app/api/v1/templates/[templateId]/documents/route";
import { documents, storedFiles } from "@/server/db/schema";
import { DOCX_ARCHIVE_MESSAGES, DOCX_LIMITS } from "@/server/documents-io/check-docx-archive";
import { CONVERT_MESSAGES } from "@/server/documents-io/convert-docx";
import { docxParts, zerosDeflated, zipRecords } from "@/server/documents-io/test-support/zip-records";
import { resetEnvCache } from "@/server/env";
import { putUpload } from "@/server/http/test-support/put-upload";
import { useTestDb } from "@/server/test/db";
import { createTestKey, createTestOrg } from "@/server/test/factories";
import { callJson } from "@/server/test/http";
import { DOCX_TYPE } from "./messages";
import { createTestTemplate } from "./test-support/fixtures";

const t = useTestDb();
const DOCX = readFileSync(path.join(import.meta.dirname, "../../documents-io/fixtures/hello.docx"));
const GiB = 1024 * 1024 * 1024;
const scratch = mkdtempSync(path.join(os.tmpdir(), "foliosign-docx-bomb-test-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
afterEach(() => {
  delete process.env.SOFFICE_PATH;
  delete process.env.CONVERT_TIMEOUT_MS;
  resetEnvCache();
});

type TAdded = { data: { document: { id: string }; uploadUrl: string } };

async function addDocx(fileSize: number) {
  const org = await createTestOrg(t.db);
  const key = (await createTestKey(t.db, org)).value;
  const templateId = await createTestTemplate(t.db, org);
  const res = await callJson<TAdded>(list.POST, { key, params: { templateId }, body: { name: "Contract.docx", fileSize, contentType: DOCX_TYPE } });
  expect(res.status).toBe(201);
  return { key, templateId, documentId: res.body.data.document.id, url: res.body.data.uploadUrl };
}

async function storedCount() {
  const [row] = await t.db.select({ n: count() }).from(storedFiles);
  return row!.n;
}

describe("DOCX bombs and slow conversions", () => {
  it("refuses a 1 MB DOCX that declares 1 GiB at upload with 422 and keeps nothing; a real DOCX is accepted", async () => {
    const bomb = zipRecords(docxParts({ name: "word/document.xml", data: zerosDeflated(1024), uncompressed: GiB, method: 8 }));
    const declared = GiB + docxParts({ name: "", data: Buffer.alloc(0) })[0]!.uncompressed!;
    const { documentId, url } = await addDocx(bomb.length);
    const res = await putUpload(url, bomb);
    expect(res).toEqual({ status: 422, body: { error: DOCX_ARCHIVE_MESSAGES.tooLarge(declared, DOCX_LIMITS.maxTotalBytes) } });
    const [row] = await t.db.select().from(documents).where(eq(documents.id, documentId));
    expect(row).toMatchObject({ uploadState: "AWAITING_UPLOAD", storageKey: null, sha256: null });
    expect(await storedCount()).toBe(0);

    // A part whose declared size lies: refused the same way, once inflated past what it declared.
    const lying = zipRecords(docxParts({ name: "word/document.xml", data: zerosDeflated(100), uncompressed: 1024 * 1024, method: 8 }));
    const second = await addDocx(lying.length);
    expect(await putUpload(second.url, lying)).toEqual({ status: 422, body: { error: DOCX_ARCHIVE_MESSAGES.expandsBeyond("word/document.xml") } });
    expect(await storedCount()).toBe(0);

    // The document was declared at the bomb's size; a real DOCX needs its own document.
    const real = await addDocx(DOCX.length);
    expect((await putUpload(real.url, DOCX)).status).toBe(200);
    expect(await storedCount()).toBe(1);
  });

  it("answers a conversion that overruns CONVERT_TIMEOUT_MS with 422 and a message, and leaves the DOCX as it was", async () => {
    const { key, templateId, documentId, url } = await addDocx(DOCX.length);
    expect((await putUpload(url, DOCX)).status).toBe(200);
    const [before] = await t.db.select().from(documents).where(eq(documents.id, documentId));
    const never = path.join(scratch, "never-finishes");
    writeFileSync(never, "#!/bin/bash\nsleep 600\n");
    chmodSync(never, 0o755);
    process.env.SOFFICE_PATH = never;
    process.env.CONVERT_TIMEOUT_MS = "300";
    resetEnvCache();
    const res = await callJson<{ error: string }>(convert.POST, { key, params: { templateId, documentId } });
    expect(res).toMatchObject({ status: 422, body: { error: CONVERT_MESSAGES.timeout(300) } });
    expect(res.body).toEqual({ error: CONVERT_MESSAGES.timeout(300) });
    expect(res.body.error).toMatch(/^The document took too long to convert \(more than 0\.3 s\)/);
    const [after] = await t.db.select().from(documents).where(eq(documents.id, documentId));
    expect(after).toEqual(before);
    expect(await storedCount()).toBe(1);
  });
});
