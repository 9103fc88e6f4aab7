/**
 * Text in any script: each run gets a font that has its glyphs, an Arabic name stays one run (so it is shaped
 * as a whole, not letter by letter), a right-to-left line puts its runs in visual order, and wrapping breaks
 * space-less CJK text between characters. Protects "typed names in any script render correctly" (Documenso #2822).
 */
import { PDFDocument } from "pdf-lib";
import { describe, expect, it } from "vitest";
import { NAMES } from "@/server/test/sealing-fixtures";
import { createTextKit } from "./create-text-kit";

const fontOf = (run: { font: { name: string } }) => run.font.name;

describe("createTextKit", () => {
  it("picks a font per script and keeps an Arabic name in one shaped run", async () => {
    const doc = await PDFDocument.create();
    const mixed = `${NAMES.latin} ${NAMES.chinese} ${NAMES.cyrillic}`;
    const kit = await createTextKit(doc, [NAMES.arabic, mixed, "محمد Smith", "محمد", ..."محمد"]);

    const arabic = kit.layout(NAMES.arabic, 12).runs;
    expect(arabic).toHaveLength(1);
    expect(fontOf(arabic[0]!)).toMatch(/NotoSansArabic/);

    // Joined (shaped) letters are not the isolated forms side by side: the widths differ.
    const joined = kit.width("محمد", 12);
    const isolated = [..."محمد"].reduce((sum, ch) => sum + kit.width(ch, 12), 0);
    expect(Math.abs(joined - isolated)).toBeGreaterThan(0.5);

    const runs = kit.layout(mixed, 12).runs;
    expect(runs.map(fontOf).map((n) => n.replace(/-\d+$/, ""))).toEqual([
      expect.stringMatching(/NotoSans-Regular/),
      expect.stringMatching(/NotoSansCJKjp/),
      expect.stringMatching(/NotoSans-Regular/),
    ]);
    expect(runs.map((r) => r.text).join("")).toBe(mixed);

    const rtl = kit.layout("محمد Smith", 12).runs;
    expect(rtl.map((r) => r.text.trim())).toEqual(["Smith", "محمد"]);
    expect(rtl[1]!.offset).toBeGreaterThan(rtl[0]!.offset);
  });

  it("wraps space-less CJK text between characters and Latin text at spaces", async () => {
    const doc = await PDFDocument.create();
    const cjk = "山田太郎王小明".repeat(6);
    const latin = "The parties agree to the terms of the annex and to nothing else. ".repeat(4);
    const kit = await createTextKit(doc, [cjk, latin]);
    const cjkLines = kit.wrap(cjk, 10, 100);
    expect(cjkLines.length).toBeGreaterThan(1);
    expect(cjkLines.join("")).toBe(cjk);
    for (const line of cjkLines) expect(kit.width(line, 10)).toBeLessThanOrEqual(100.5);
    const latinLines = kit.wrap(latin, 10, 150);
    expect(latinLines.length).toBeGreaterThan(1);
    for (const line of latinLines) {
      expect(kit.width(line, 10)).toBeLessThanOrEqual(150.5);
      expect(line).toMatch(/^\S.*\S$/); // broken at spaces, trimmed
    }
    expect(latinLines.join(" ")).toBe(latin.trim());
  });

  it("refuses text that was not declared in a subset-only face", async () => {
    const doc = await PDFDocument.create();
    const kit = await createTextKit(doc, ["Latin only"]);
    expect(() => kit.layout(NAMES.chinese, 10)).toThrow(/not declared/);
  });
});
