/**
 * Bad stored data becomes a SealingError with a message the owner can act on, never a crash: a field off the
 * page, an unreadable image, a file that is not a PDF. Rotated pages keep values where the editor placed them.
 */
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { degrees, PDFDocument } from "pdf-lib";
import { describe, expect, it } from "vitest";
import { makeOriginal, runTool } from "@/server/test/sealing-fixtures";
import { SealingError } from "./sealing-error";
import { stampDocument } from "./stamp-document";

describe("stampDocument", () => {
  it("rejects a field on a page the document does not have", async () => {
    const original = await makeOriginal(2);
    await expect(stampDocument(original, [{ type: "text", text: "x", pageIndex: 2, x: 10, y: 10, width: 50, height: 20 }])).rejects.toThrow(
      new SealingError("A text field is on page 3, but the document has 2"),
    );
  });

  it("rejects an invalid position and an unreadable signature image", async () => {
    const original = await makeOriginal(1);
    await expect(stampDocument(original, [{ type: "name", text: "x", pageIndex: 0, x: Number.NaN, y: 0, width: 10, height: 10 }])).rejects.toThrow(
      SealingError,
    );
    await expect(
      stampDocument(original, [{ type: "signature", image: new Uint8Array([1, 2, 3]), pageIndex: 0, x: 0, y: 0, width: 10, height: 10 }]),
    ).rejects.toThrow("The signature image on page 1 is not a readable PNG");
  });

  it("rejects bytes that are not a PDF", async () => {
    await expect(stampDocument(new Uint8Array(Buffer.from("hello")), [])).rejects.toThrow("The original document is not a readable PDF");
  });

  it("rejects an encrypted original with a clear message", async () => {
    const plain = path.join(tmpdir(), `foliosign-plain-${process.pid}.pdf`);
    const locked = path.join(tmpdir(), `foliosign-locked-${process.pid}.pdf`);
    writeFileSync(plain, await makeOriginal(1));
    runTool("qpdf", ["--encrypt", "user", "owner", "256", "--", plain, locked]);
    const bytes = new Uint8Array(readFileSync(locked));
    rmSync(plain);
    rmSync(locked);
    await expect(stampDocument(bytes, [])).rejects.toThrow("Encrypted PDFs cannot be sealed");
  });

  it("keeps a value where the editor placed it on a rotated page (displayed top-left coordinates)", async () => {
    for (const rotation of [0, 90, 180, 270]) {
      const doc = await PDFDocument.create();
      doc.addPage([600, 400]).setRotation(degrees(rotation));
      const stamped = await stampDocument(await doc.save(), [{ type: "name", text: "PLACED", pageIndex: 0, x: 30, y: 40, width: 120, height: 30 }]);
      const file = path.join(tmpdir(), `foliosign-rot-${process.pid}-${rotation}.pdf`);
      writeFileSync(file, await stamped.save());
      // pdftotext -bbox reports words in the displayed page's top-left coordinates, like the editor.
      const html = runTool("pdftotext", ["-bbox", file, "-"]).out;
      rmSync(file);
      const m = /xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">PLACED</.exec(html);
      expect(m, `rotation ${rotation}: ${html}`).not.toBeNull();
      const [xMin, yMin, xMax, yMax] = m!.slice(1).map(Number) as [number, number, number, number];
      expect(xMin, `rotation ${rotation}`).toBeGreaterThanOrEqual(29);
      expect(xMax, `rotation ${rotation}`).toBeLessThanOrEqual(151);
      expect(yMin, `rotation ${rotation}`).toBeGreaterThanOrEqual(39);
      expect(yMax, `rotation ${rotation}`).toBeLessThanOrEqual(71);
    }
  });
});
