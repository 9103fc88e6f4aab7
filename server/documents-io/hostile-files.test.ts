/**
 * The hostile-file table: every file here is uploaded through the real PUT /uploads/{token} (so inspected in
 * the child process, as in production) and must be refused with 422 and the exact message an API user reads —
 * never accepted, never a 500, never a crash or a hang of this process — and keep nothing (no stored file, the
 * document still AWAITING_UPLOAD, the URL still usable, no temporary copy).
 *
 * Protects above all issue 24 item 4: a PDF the sealer cannot process must be refused at upload. A 335-byte
 * PDF whose page tree contains itself used to pass the check (@libpdf/core walks the tree with a visited set)
 * and then fail every seal attempt with "Maximum call stack size exceeded" (pdf-lib, which stamps the values,
 * recurses through it), leaving the package IN_PROGRESS for ever. The page-tree rows below fail without the
 * seal rehearsal in the inspector (server/pdf/rehearse-seal.ts). Each page-tree file is also run through
 * the sealer's first step here, to show that it really is one the sealer cannot take.
 */
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { PDF } from "@libpdf/core";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as list from "@/app/api/v1/templates/[templateId]/documents/route";
import { documents, storedFiles, uploadTokens } from "@/server/db/schema";
import { createTestTemplate, DEEPLY_NESTED_PDF, LOOPING_XREF_PDF, manyPagesPdf } from "@/server/domain/documents/test-support/fixtures";
import { putUpload } from "@/server/http/test-support/put-upload";
import { stampDocument } from "@/server/pdf/stamp-document";
import { useTestDb } from "@/server/test/db";
import { createTestKey, createTestOrg } from "@/server/test/factories";
import { callJson } from "@/server/test/http";
import { INSPECT_MESSAGES } from "./inspect-file";
import { rawPdf } from "./test-support/raw-pdf";

const t = useTestDb();

let tmpRoot = "";
let previousTmpdir: string | undefined;
beforeAll(() => {
  previousTmpdir = process.env.TMPDIR;
  tmpRoot = mkdtempSync(path.join(os.tmpdir(), "foliosign-hostile-test-"));
  process.env.TMPDIR = tmpRoot;
});
afterAll(() => {
  rmSync(tmpRoot, { recursive: true, force: true });
  if (previousTmpdir === undefined) delete process.env.TMPDIR;
  else process.env.TMPDIR = previousTmpdir;
});

const CATALOG = "<< /Type /Catalog /Pages 2 0 R >>";
const LETTER_PAGE = "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >>";

/** The issue's file: a /Pages node whose /Kids lists itself next to its one real page. */
const SELF_CONTAINING_TREE = rawPdf([CATALOG, "<< /Type /Pages /Kids [2 0 R 3 0 R] /Count 1 >>", LETTER_PAGE]);

async function protectedPdf(protection: { userPassword?: string; ownerPassword: string }): Promise<Buffer> {
  const pdf = PDF.create();
  pdf.addPage({ size: "a4" });
  pdf.setProtection(protection);
  return Buffer.from(await pdf.save());
}

function pageTree(levels: number): Buffer {
  const objects = [CATALOG];
  for (let i = 2; i < levels + 2; i++) objects.push(`<< /Type /Pages /Kids [${i + 1} 0 R] /Count 1 >>`);
  objects.push("<< /Type /Page /MediaBox [0 0 10 10] >>");
  return rawPdf(objects);
}

/** Files whose page tree the sealer (pdf-lib) cannot walk, or reads unlike the inspector. */
const PAGE_TREE_CASES: [string, () => Buffer][] = [
  ["a page tree that contains itself (the 335-byte PDF of issue 24)", () => SELF_CONTAINING_TREE],
  [
    "a page tree with a two-node cycle",
    () => rawPdf([CATALOG, "<< /Type /Pages /Kids [3 0 R 4 0 R] /Count 1 >>", "<< /Type /Pages /Parent 2 0 R /Kids [2 0 R] /Count 1 >>", LETTER_PAGE]),
  ],
  [
    "a /Parent chain that loops",
    () => rawPdf([CATALOG, "<< /Type /Pages /Parent 2 0 R /Kids [3 0 R] /Count 1 /MediaBox [0 0 612 792] >>", "<< /Type /Page /Parent 2 0 R >>"]),
  ],
  ["the same page listed twice", () => rawPdf([CATALOG, "<< /Type /Pages /Kids [3 0 R 3 0 R] /Count 2 >>", LETTER_PAGE])],
  ["a page as the root of the page tree", () => rawPdf([CATALOG, "<< /Type /Page /MediaBox [0 0 612 792] >>"])],
];

const CASES: [string, () => Promise<Buffer> | Buffer, string][] = [
  ...PAGE_TREE_CASES.map(([label, build]): [string, () => Buffer, string] => [label, build, INSPECT_MESSAGES.pdfUnsealable]),
  ["a truncated PDF", () => SELF_CONTAINING_TREE.subarray(0, 200), INSPECT_MESSAGES.pdfTruncated],
  ["garbage after a PDF header", () => Buffer.from(`%PDF-1.7\n${"garbage ".repeat(200)}\n%%EOF\n`), INSPECT_MESSAGES.pdfDamaged],
  ["an xref chain that loops", () => LOOPING_XREF_PDF, INSPECT_MESSAGES.pdfDamaged],
  ["200,000 nested arrays", () => DEEPLY_NESTED_PDF, INSPECT_MESSAGES.pdfDamaged],
  ["a page tree 50,000 levels deep (read no deeper than the reader's limit: no pages)", () => pageTree(50_000), INSPECT_MESSAGES.pdfNoPages],
  ["2,001 pages (the limit is 2,000)", () => manyPagesPdf(2001), INSPECT_MESSAGES.pdfTooManyPages(2000)],
  ["zero pages", () => rawPdf([CATALOG, "<< /Type /Pages /Kids [] /Count 0 >>"]), INSPECT_MESSAGES.pdfNoPages],
  ["a /Kids that is not an array", () => rawPdf([CATALOG, "<< /Type /Pages /Kids 3 0 R /Count 1 >>", LETTER_PAGE]), INSPECT_MESSAGES.pdfNoPages],
  [
    "a page with no size",
    () => rawPdf([CATALOG, "<< /Type /Pages /Kids [3 0 R] /Count 1 >>", "<< /Type /Page /Parent 2 0 R >>"]),
    INSPECT_MESSAGES.pdfBadPageSize(1),
  ],
  ["a PDF encrypted with a user password", () => protectedPdf({ userPassword: "open-me", ownerPassword: "owner" }), INSPECT_MESSAGES.pdfEncrypted],
  ["a PDF encrypted with an owner password only", () => protectedPdf({ ownerPassword: "owner" }), INSPECT_MESSAGES.pdfEncrypted],
  ["a PNG named .pdf", () => Buffer.concat([Buffer.from("89504e470d0a1a0a", "hex"), Buffer.alloc(200, 7)]), INSPECT_MESSAGES.unknown],
  ["a text file named .pdf", () => Buffer.from("Dear customer, please sign.\n".repeat(20)), INSPECT_MESSAGES.unknown],
  ["a legacy Word file named .pdf", () => Buffer.concat([Buffer.from("d0cf11e0a1b11ae1", "hex"), Buffer.alloc(512)]), INSPECT_MESSAGES.legacyOffice],
];

async function addDocument(fileSize: number) {
  const org = await createTestOrg(t.db);
  const key = (await createTestKey(t.db, org)).value;
  const templateId = await createTestTemplate(t.db, org);
  const res = await callJson<{ data: { document: { id: string }; uploadUrl: string } }>(list.POST, {
    key,
    params: { templateId },
    body: { name: "Contract.pdf", fileSize, contentType: "application/pdf" },
  });
  expect(res.status).toBe(201);
  return { documentId: res.body.data.document.id, url: res.body.data.uploadUrl };
}

describe("hostile files at upload", () => {
  it("the issue's file is 335 bytes, and the sealer's own first step fails on every page-tree case", async () => {
    expect(SELF_CONTAINING_TREE.length).toBe(335);
    for (const [label, build] of PAGE_TREE_CASES) {
      // What the sealer does with an original (plus a value on page 1): each of these either throws or reads a
      // different number of pages than the one the inspector (and so the editor) counts.
      const outcome = await stampDocument(build(), [{ type: "checkbox", checked: true, pageIndex: 0, x: 1, y: 1, width: 5, height: 5 }]).then(
        (doc) => `${doc.getPageCount()} pages`,
        (e: unknown) => (e as Error).message,
      );
      expect.soft(outcome, label).not.toBe("1 pages");
    }
  });

  it.each(CASES)("refuses %s with 422 and its message, and keeps nothing", async (_label, build, message) => {
    const bytes = await build();
    const { documentId, url } = await addDocument(bytes.length);
    const res = await putUpload(url, bytes);
    expect(res).toEqual({ status: 422, body: { error: message } });
    expect(await t.db.select().from(storedFiles)).toHaveLength(0);
    const [row] = await t.db.select().from(documents).where(eq(documents.id, documentId));
    expect(row).toMatchObject({ uploadState: "AWAITING_UPLOAD", storageKey: null, sha256: null, pageCount: null });
    const [token] = await t.db.select().from(uploadTokens).where(eq(uploadTokens.documentId, documentId));
    expect(token!.usedAt).toBeNull();
    expect(readdirSync(tmpRoot).filter((name) => name.startsWith("foliosign-upload-"))).toEqual([]);
  });

  it("still accepts ordinary PDFs afterwards, including a deep (3,000-level) but sound page tree and an inherited MediaBox", async () => {
    const deep = (() => {
      const objects = [CATALOG];
      for (let i = 2; i < 3002; i++) objects.push(`<< /Type /Pages /Kids [${i + 1} 0 R] /Count 1 ${i > 2 ? `/Parent ${i - 1} 0 R` : ""} >>`);
      objects.push("<< /Type /Page /Parent 3001 0 R /MediaBox [0 0 10 10] >>");
      return rawPdf(objects);
    })();
    const inherited = rawPdf([CATALOG, "<< /Type /Pages /Kids [3 0 R] /Count 1 /MediaBox [0 0 612 792] >>", "<< /Type /Page /Parent 2 0 R >>"]);
    for (const [bytes, pages] of [
      [deep, [{ width: 10, height: 10 }]],
      [inherited, [{ width: 612, height: 792 }]],
      [manyPagesPdf(3), Array.from({ length: 3 }, () => ({ width: 612, height: 792 }))],
    ] as const) {
      const { url } = await addDocument(bytes.length);
      const res = await putUpload(url, bytes);
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({ uploadState: "UPLOADED", pageCount: pages.length, pageSizes: pages });
    }
  });
});
