/**
 * Typed signatures are handwriting in the sealed PDF too (issue 25, point 6): a Latin, Polish or Cyrillic typed
 * signature is drawn with Caveat (the page's face, from @fontsource/caveat, OFL), fitted to its box, its text still
 * extractable; a name in a script Caveat lacks (CJK) stays Noto, whole; other fields are never handwriting.
 * Checked with poppler (pdffonts, pdftotext) on the stamped document.
 */
import { rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { certificateData, makeOriginal, runTool } from "@/server/test/sealing-fixtures";
import { renderCertificate } from "./render-certificate";
import { stampDocument } from "./stamp-document";

async function stamped(fields: Parameters<typeof stampDocument>[1]): Promise<{ fonts: string; text: string }> {
  return inspect(await (await stampDocument(await makeOriginal(1), fields)).save());
}

async function inspect(bytes: Uint8Array): Promise<{ fonts: string; text: string }> {
  const file = path.join(tmpdir(), `foliosign-hand-${process.pid}-${Math.random().toString(36).slice(2)}.pdf`);
  writeFileSync(file, bytes);
  try {
    return { fonts: runTool("pdffonts", [file]).out, text: runTool("pdftotext", [file, "-"]).out };
  } finally {
    rmSync(file, { force: true });
  }
}

const box = { pageIndex: 0, x: 60, y: 100, width: 180, height: 40 };

describe("typed signatures in the sealed PDF", () => {
  it("draws Latin, Polish and Cyrillic typed signatures and initials in Caveat, whole", async () => {
    const long = "Maximilian Alexander Bartholomew-Featherstonehaugh";
    const { fonts, text } = await stamped([
      { ...box, type: "signature", text: long },
      { ...box, y: 160, type: "signature", text: "Łukasz Żółkiewski" },
      { ...box, y: 220, type: "signature", text: "Анна Иванова" },
      { ...box, y: 280, type: "initials", text: "MF" },
    ]);
    expect(fonts).toMatch(/Caveat/);
    expect(fonts).not.toMatch(/NotoSans/);
    for (const value of [long, "Łukasz Żółkiewski", "Анна Иванова", "MF"]) expect(text).toContain(value);
  });

  it("keeps Noto for a script Caveat lacks, and for every other field type", async () => {
    const cjk = await stamped([{ ...box, type: "signature", text: "李小龙" }]);
    expect(cjk.fonts).not.toMatch(/Caveat/);
    expect(cjk.fonts).toMatch(/Noto/);
    expect(cjk.text).toContain("李小龙");
    const name = await stamped([{ ...box, type: "name", text: "Maximilian" }]);
    expect(name.fonts).not.toMatch(/Caveat/);
  });

  it("the certificate of completion shows a typed signature in Caveat too, and keeps Noto where Caveat lacks a character", async () => {
    const base = certificateData();
    const typed = (signatureText: string) => ({ ...base.recipients[1]!, signatureText });
    const latin = await inspect(await renderCertificate({ ...base, recipients: [typed("Anna Łukasiewicz")] }));
    expect(latin.fonts).toMatch(/Caveat/);
    expect(latin.text).toContain("Anna Łukasiewicz");
    const cjk = await inspect(await renderCertificate({ ...base, recipients: [typed("李小龙")] }));
    expect(cjk.fonts).not.toMatch(/Caveat/);
    expect(cjk.text).toContain("李小龙");
  });
});
