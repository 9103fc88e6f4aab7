/**
 * The fonts the engine draws with, read once per process from the Debian font packages (OFL 1.1):
 * `fonts-noto-core` (Noto Sans for Latin, Greek and Cyrillic; Noto Sans Arabic) and `fonts-noto-cjk` (Noto Sans
 * CJK, Chinese/Japanese/Korean). They are not committed: the CJK collection alone is 19 MB, and a committed
 * pre-subset would miss the rarer characters of real names. Each PDF embeds only the glyphs it uses.
 * `SEALING_FONT_DIR` (a folder holding the same file names) is searched first, for machines without the packages.
 */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import fontkit from "@pdf-lib/fontkit";
import { env } from "@/server/env";

type TFontkitFont = ReturnType<typeof fontkit.create>;

export type TFontFace = {
  /** Stable label, used in errors and tests. */
  label: "sans" | "sans-bold" | "arabic" | "cjk";
  bytes: Uint8Array;
  /** Index of the face inside a collection (.ttc); 0 for a single font. */
  faceIndex: number;
  /** True when the font has CFF outlines or is a collection: subset with HarfBuzz before embedding. */
  needsExternalSubset: boolean;
  /** Parsed font, for coverage checks (`hasGlyphForCodePoint`). */
  parsed: TFontkitFont;
};

export type TFontSet = { sans: TFontFace; sansBold: TFontFace; arabic: TFontFace; cjk: TFontFace };

const FILES = {
  sans: { file: "NotoSans-Regular.ttf", dirs: ["/usr/share/fonts/truetype/noto"] },
  sansBold: { file: "NotoSans-Bold.ttf", dirs: ["/usr/share/fonts/truetype/noto"] },
  arabic: { file: "NotoSansArabic-Regular.ttf", dirs: ["/usr/share/fonts/truetype/noto"] },
  cjk: { file: "NotoSansCJK-Regular.ttc", dirs: ["/usr/share/fonts/opentype/noto"], face: "NotoSansCJKjp-Regular" },
} as const;

let cached: TFontSet | undefined;

function findFile(file: string, dirs: readonly string[]): string {
  const extra = env().SEALING_FONT_DIR;
  const candidates = [...(extra ? [extra] : []), ...dirs].map((d) => path.join(d, file));
  const found = candidates.find((p) => existsSync(p));
  if (!found) {
    throw new Error(
      `Font ${file} not found (looked in ${candidates.join(", ")}). Install the Debian packages fonts-noto-core ` +
        "and fonts-noto-cjk, or set SEALING_FONT_DIR to a folder holding the file.",
    );
  }
  return found;
}

function loadFace(label: TFontFace["label"], file: string, dirs: readonly string[], faceName?: string): TFontFace {
  const bytes: Uint8Array = readFileSync(findFile(file, dirs)); // a Buffer is a Uint8Array: no second 19 MB copy
  const collection = fontkit.create(bytes) as TFontkitFont & { fonts?: { postscriptName: string }[] };
  let faceIndex = 0;
  let parsed: TFontkitFont = collection;
  if (collection.fonts) {
    faceIndex = collection.fonts.findIndex((f) => f.postscriptName === faceName);
    if (faceIndex < 0) throw new Error(`Font ${file} has no face named ${faceName}`);
    parsed = fontkit.create(bytes, faceName);
  }
  // pdf-lib's own subsetter writes broken CFF fonts (measured: poppler "Couldn't create a font"), and cannot take
  // a face out of a collection; such faces go through HarfBuzz's subsetter first.
  const needsExternalSubset = Boolean(collection.fonts) || "CFF " in (parsed as unknown as { directory: { tables: object } }).directory.tables;
  return { label, bytes, faceIndex, needsExternalSubset, parsed };
}

export function loadFontSet(): TFontSet {
  cached ??= {
    sans: loadFace("sans", FILES.sans.file, FILES.sans.dirs),
    sansBold: loadFace("sans-bold", FILES.sansBold.file, FILES.sansBold.dirs),
    arabic: loadFace("arabic", FILES.arabic.file, FILES.arabic.dirs),
    cjk: loadFace("cjk", FILES.cjk.file, FILES.cjk.dirs, FILES.cjk.face),
  };
  return cached;
}
