/**
 * The handwriting face of typed signatures and initials in the sealed PDF: Caveat (SIL Open Font License 1.1,
 * from the npm package @fontsource/caveat), the same face the signing page shows them in
 * (components/signing/handwriting.ts). The package splits it by script into four files (Latin, Latin Extended,
 * Cyrillic, Cyrillic Extended); a value is cut into runs, each drawn with the file that has its characters.
 * A value with any character none of them has (CJK, Arabic, Greek…) gets null: the caller draws it with the Noto
 * text kit, as every other value, so a name is never half handwriting and half boxes.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import fontkit from "@pdf-lib/fontkit";
import type { PDFDocument, PDFFont } from "pdf-lib";

const SUBSETS = ["latin", "latin-ext", "cyrillic", "cyrillic-ext"] as const;
type TSubset = (typeof SUBSETS)[number];
type TParsed = ReturnType<typeof fontkit.create>;

let faces: { subset: TSubset; bytes: Uint8Array; parsed: TParsed }[] | undefined;

function loadFaces() {
  if (faces) return faces;
  // A plain path, read at run time: a require.resolve of a .woff would make the bundler treat it as a module.
  const dir = path.join(process.cwd(), "node_modules", "@fontsource", "caveat", "files");
  faces = SUBSETS.map((subset) => {
    const bytes: Uint8Array = readFileSync(path.join(dir, `caveat-${subset}-400-normal.woff`));
    return { subset, bytes, parsed: fontkit.create(bytes) };
  });
  return faces;
}

export type THandwritingRun = { text: string; font: PDFFont };
export type THandwriting = { runs: THandwritingRun[]; width(size: number): number };

const embedded = new WeakMap<PDFDocument, Map<TSubset, Promise<PDFFont>>>();

function embed(doc: PDFDocument, subset: TSubset, bytes: Uint8Array): Promise<PDFFont> {
  const perDoc = embedded.get(doc) ?? new Map<TSubset, Promise<PDFFont>>();
  embedded.set(doc, perDoc);
  let font = perDoc.get(subset);
  if (!font) {
    doc.registerFontkit(fontkit);
    font = doc.embedFont(bytes, { subset: true });
    perDoc.set(subset, font);
  }
  return font;
}

/** The value as handwriting runs (embedded in `doc`), or null when a character is outside Caveat's scripts. */
export async function handwritingFor(doc: PDFDocument, text: string): Promise<THandwriting | null> {
  const all = loadFaces();
  const pieces: { subset: TSubset; bytes: Uint8Array; text: string }[] = [];
  for (const ch of text) {
    const cp = ch.codePointAt(0) ?? 0x20;
    const last = pieces.at(-1);
    // A space stays in the run it sits in (every file has one).
    if (last && /\s/u.test(ch)) {
      last.text += ch;
      continue;
    }
    const face = all.find((f) => f.parsed.hasGlyphForCodePoint(cp));
    if (!face) return null;
    if (last && last.subset === face.subset) last.text += ch;
    else pieces.push({ subset: face.subset, bytes: face.bytes, text: ch });
  }
  if (pieces.length === 0) return null;
  const runs = await Promise.all(pieces.map(async (p) => ({ text: p.text, font: await embed(doc, p.subset, p.bytes) })));
  return { runs, width: (size) => runs.reduce((sum, r) => sum + r.font.widthOfTextAtSize(r.text, size), 0) };
}
