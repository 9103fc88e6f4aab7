/**
 * sealPdf, the single-document path: values drawn, certificate appended (or not), one signature that pdfsig
 * accepts, and the page count is the document's plus the certificate's.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { certificateData, makeOriginal, memorySigningKeyStore, NAMES, runTool } from "@/server/test/sealing-fixtures";
import { loadOrCreateSigningIdentity } from "./load-or-create-signing-identity";
import { sealPdf } from "./seal-pdf";

const dir = mkdtempSync(path.join(tmpdir(), "foliosign-sealpdf-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("sealPdf", () => {
  it("seals one document with and without its certificate", async () => {
    const identity = await loadOrCreateSigningIdentity(memorySigningKeyStore());
    const original = await makeOriginal(3);
    const fields = [{ type: "signature" as const, text: NAMES.arabic, pageIndex: 2, x: 300, y: 700, width: 200, height: 40 }];
    const withCert = await sealPdf({
      document: { original, fields },
      certificate: certificateData({ documents: [{ name: "a.pdf", pages: 3, originalSha256: "ab".repeat(32) }] }),
      identity,
    });
    const alone = await sealPdf({ document: { original, fields }, identity });
    for (const [name, sealed, minPages] of [
      ["with.pdf", withCert, 4],
      ["alone.pdf", alone, 3],
    ] as const) {
      const file = path.join(dir, name);
      writeFileSync(file, sealed.bytes);
      expect(runTool("pdfsig", [file]).out).toContain("Signature is Valid.");
      const pages = Number(/Pages:\s+(\d+)/.exec(runTool("pdfinfo", [file]).out)?.[1]);
      if (name === "alone.pdf") expect(pages).toBe(3);
      else expect(pages).toBeGreaterThanOrEqual(minPages);
      expect(sealed.pages).toBe(pages);
      expect(runTool("pdftotext", ["-enc", "UTF-8", "-f", "3", "-l", "3", file, "-"]).out.replace(/[\u200e\u200f\u202a-\u202e]/g, "")).toContain(NAMES.arabic);
    }
  });
});
