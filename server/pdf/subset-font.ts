/**
 * Font subsetting with HarfBuzz's hb-subset (the `harfbuzzjs` package's standalone WebAssembly build, no imports).
 * Used for faces pdf-lib cannot subset itself: CFF-outline fonts and faces inside a collection (.ttc). The result
 * keeps the layout tables (GSUB/GPOS) for the kept glyphs, so text is shaped the same as with the full font.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";

type THbExports = {
  memory: WebAssembly.Memory;
  malloc(size: number): number;
  free(ptr: number): void;
  hb_blob_create(data: number, length: number, mode: number, userData: number, destroy: number): number;
  hb_blob_destroy(blob: number): void;
  hb_blob_get_data(blob: number, length: number): number;
  hb_blob_get_length(blob: number): number;
  hb_face_create(blob: number, index: number): number;
  hb_face_destroy(face: number): void;
  hb_face_reference_blob(face: number): number;
  hb_set_add(set: number, codePoint: number): void;
  hb_subset_input_create_or_fail(): number;
  hb_subset_input_destroy(input: number): void;
  hb_subset_input_unicode_set(input: number): number;
  hb_subset_or_fail(face: number, input: number): number;
};

const HB_MEMORY_MODE_READONLY = 1;
let hb: THbExports | undefined;

function harfbuzz(): THbExports {
  if (!hb) {
    const wasmPath = createRequire(import.meta.url).resolve("harfbuzzjs/dist/harfbuzz-subset.wasm");
    const instance = new WebAssembly.Instance(new WebAssembly.Module(readFileSync(wasmPath)), {});
    hb = instance.exports as unknown as THbExports;
  }
  return hb;
}

/** A standalone font (never a collection) holding the glyphs for `codePoints` (plus what shaping needs). */
export function subsetFont(font: Uint8Array, faceIndex: number, codePoints: Iterable<number>): Uint8Array {
  const x = harfbuzz();
  const ptr = x.malloc(font.length);
  if (!ptr) throw new Error("Font subsetting: out of WebAssembly memory");
  let face = 0;
  let input = 0;
  let subset = 0;
  try {
    new Uint8Array(x.memory.buffer).set(font, ptr);
    const blob = x.hb_blob_create(ptr, font.length, HB_MEMORY_MODE_READONLY, 0, 0);
    face = x.hb_face_create(blob, faceIndex);
    x.hb_blob_destroy(blob);
    input = x.hb_subset_input_create_or_fail();
    if (!input) throw new Error("Font subsetting: could not create the subset input");
    const unicodes = x.hb_subset_input_unicode_set(input);
    for (const cp of codePoints) x.hb_set_add(unicodes, cp);
    subset = x.hb_subset_or_fail(face, input);
    if (!subset) throw new Error("Font subsetting failed");
    const out = x.hb_face_reference_blob(subset);
    const data = x.hb_blob_get_data(out, 0);
    const length = x.hb_blob_get_length(out);
    // Copy out before anything else touches (and may grow) the WebAssembly memory.
    const bytes = new Uint8Array(x.memory.buffer).slice(data, data + length);
    x.hb_blob_destroy(out);
    return bytes;
  } finally {
    if (subset) x.hb_face_destroy(subset);
    if (input) x.hb_subset_input_destroy(input);
    if (face) x.hb_face_destroy(face);
    x.free(ptr);
  }
}
