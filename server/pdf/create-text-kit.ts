/**
 * Text in any script onto pdf-lib pages. A string is cut into runs, each drawn with the first font that has its
 * glyphs (Noto Sans → Noto Sans Arabic → Noto Sans CJK); spaces, digits and punctuation stay in the run they sit
 * in so that an Arabic name is shaped and reversed as one run. Shaping (Arabic joining forms, ligatures) and the
 * right-to-left order inside a run are fontkit's layout, which pdf-lib runs when it encodes text; the ToUnicode
 * map it writes keeps the logical characters, so the text can be copied and searched.
 *
 * Bidi is deliberately simple: runs keep their logical order, reversed as a whole when the line's first strong
 * character is right-to-left. That is right for names and short values in one direction with neutral
 * punctuation; a line mixing long Latin and Arabic phrases is not reordered the way the full Unicode algorithm
 * would.
 *
 * All text must be declared when the kit is created: faces subset by HarfBuzz (CJK) hold only those characters.
 * `bold: true` also embeds Noto Sans Bold (the certificate's headings); without it, asking for bold throws.
 */
import fontkit from "@pdf-lib/fontkit";
import type { PDFDocument, PDFFont } from "pdf-lib";
import { loadFontSet, type TFontFace, type TFontSet } from "./load-font-set";
import { subsetFont } from "./subset-font";

type TFaceKey = keyof TFontSet;
export type TTextRun = { text: string; font: PDFFont; offset: number; width: number };
export type TTextKit = {
  /** Runs in visual (left-to-right drawing) order with their x offset from the start of the line. */
  layout(text: string, size: number, options?: { bold?: boolean }): { runs: TTextRun[]; width: number };
  width(text: string, size: number, options?: { bold?: boolean }): number;
  /** Greedy wrapping at spaces; a word wider than the line (CJK has no spaces) is broken between graphemes. */
  wrap(text: string, size: number, maxWidth: number, options?: { bold?: boolean }): string[];
};

const ORDER: TFaceKey[] = ["sans", "arabic", "cjk"];
const STRONG = /[\p{L}\p{M}]/u;
const RTL = /[\p{Script=Arabic}\p{Script=Hebrew}\p{Script=Syriac}\p{Script=Thaana}\p{Script=Nko}]/u;
const graphemes = new Intl.Segmenter(undefined, { granularity: "grapheme" });

/** One line of text: control characters and line breaks become spaces (a value is drawn on its own lines). */
export function normaliseLine(text: string): string {
  return text.normalize("NFC").replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g, " ");
}

// Which faces have a glyph for a code point (bit i ↔ ORDER[i]); asked for every character of every string.
const coverage = new Map<number, number>();
function covers(fonts: TFontSet, face: TFaceKey, cp: number): boolean {
  let mask = coverage.get(cp);
  if (mask === undefined) {
    mask = ORDER.reduce((m, k, i) => (fonts[k].parsed.hasGlyphForCodePoint(cp) ? m | (1 << i) : m), 0);
    if (coverage.size < 100_000) coverage.set(cp, mask);
  }
  return (mask & (1 << ORDER.indexOf(face === "sansBold" ? "sans" : face))) !== 0;
}

function segment(text: string, fonts: TFontSet, bold: boolean): { face: TFaceKey; text: string }[] {
  const runs: { face: TFaceKey; text: string }[] = [];
  for (const ch of text) {
    const cp = ch.codePointAt(0) ?? 0x20;
    const last = runs[runs.length - 1];
    if (last && !STRONG.test(ch) && covers(fonts, last.face, cp)) {
      last.text += ch;
      continue;
    }
    const face = ORDER.find((k) => covers(fonts, k, cp)) ?? "sans";
    const key: TFaceKey = face === "sans" && bold ? "sansBold" : face;
    if (last && last.face === key) last.text += ch;
    else runs.push({ face: key, text: ch });
  }
  return runs;
}

export async function createTextKit(doc: PDFDocument, declared: Iterable<string>, options: { bold?: boolean } = {}): Promise<TTextKit> {
  const fonts = loadFontSet();
  const texts = [...declared];
  doc.registerFontkit(fontkit);
  const used = new Map<TFaceKey, Set<number>>();
  for (const raw of texts) {
    for (const bold of options.bold ? [false, true] : [false]) {
      for (const run of segment(normaliseLine(raw), fonts, bold)) {
        const set = used.get(run.face) ?? new Set<number>();
        for (const ch of run.text) set.add(ch.codePointAt(0) ?? 0x20);
        used.set(run.face, set);
      }
    }
  }
  // A wrapped fragment may put a neutral character (digit, punctuation) in another run than the whole string
  // did; give the externally subset face every declared neutral character it covers so that cannot go missing.
  const external = used.get("cjk");
  if (external) {
    for (const raw of texts) {
      for (const ch of raw) {
        const cp = ch.codePointAt(0) ?? 0x20;
        if (!STRONG.test(ch) && covers(fonts, "cjk", cp)) external.add(cp);
      }
    }
  }
  const embedded = new Map<TFaceKey, PDFFont>();
  const embed = async (key: TFaceKey, face: TFontFace): Promise<PDFFont> => {
    const existing = embedded.get(key);
    if (existing) return existing;
    const font = face.needsExternalSubset
      ? await doc.embedFont(subsetFont(face.bytes, face.faceIndex, used.get(key) ?? []), { subset: false })
      : await doc.embedFont(face.bytes, { subset: true });
    embedded.set(key, font);
    return font;
  };
  // Embedding is async in pdf-lib; do it now so that layout() can stay synchronous.
  for (const key of used.keys()) await embed(key, fonts[key]);

  // Measuring is fontkit's full shaping pass (a few ms for a long string): measure each distinct string once
  // per size, and wrap by adding word widths instead of re-measuring every candidate line.
  const measured = new Map<string, { runs: TTextRun[]; width: number }>();
  const layout: TTextKit["layout"] = (text, size, options) => {
    const memoKey = `${size}|${options?.bold ? 1 : 0}|${text}`;
    const hit = measured.get(memoKey);
    if (hit) return hit;
    const line = normaliseLine(text);
    const logical = segment(line, fonts, options?.bold ?? false);
    const firstStrong = [...line].find((ch) => STRONG.test(ch));
    const visual = firstStrong && RTL.test(firstStrong) ? logical.reverse() : logical;
    let offset = 0;
    const runs: TTextRun[] = [];
    for (const run of visual) {
      const font = embedded.get(run.face);
      if (!font) throw new Error(`Text kit: "${line}" was not declared when the kit was created`);
      const width = font.widthOfTextAtSize(run.text, size);
      runs.push({ text: run.text, font, offset, width });
      offset += width;
    }
    const result = { runs, width: offset };
    if (measured.size < 20_000) measured.set(memoKey, result);
    return result;
  };
  const width: TTextKit["width"] = (text, size, options) => layout(text, size, options).width;

  const wrap: TTextKit["wrap"] = (text, size, maxWidth, options) => {
    const lines: string[] = [];
    for (const paragraph of text.split(/\r?\n/)) {
      let current = "";
      let currentWidth = 0;
      for (const word of normaliseLine(paragraph).split(/(?<=\s)/)) {
        const wordWidth = width(word, size, options);
        if (currentWidth + width(word.trimEnd(), size, options) <= maxWidth) {
          current += word;
          currentWidth += wordWidth;
          continue;
        }
        if (current.trim()) lines.push(current.trimEnd());
        current = "";
        currentWidth = 0;
        if (width(word.trimEnd(), size, options) <= maxWidth) {
          current = word;
          currentWidth = wordWidth;
          continue;
        }
        for (const { segment: g } of graphemes.segment(word)) {
          const gWidth = width(g, size, options);
          if (current && currentWidth + gWidth > maxWidth) {
            lines.push(current);
            current = "";
            currentWidth = 0;
          }
          current += g;
          currentWidth += gWidth;
        }
      }
      lines.push(current.trimEnd());
    }
    return lines;
  };
  return { layout, width, wrap };
}
