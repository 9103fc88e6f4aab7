/**
 * After a seal, a file may gain evidence by incremental updates (a DSS, document time-stamps: PAdES B-LT/B-LTA),
 * which the seal does not cover. This checks that such updates change nothing else: loading the sealed revision
 * (the prefix) and the whole file, every object of the sealed revision must resolve to the same thing in both,
 * except the catalog, which may only gain or change /DSS and /AcroForm, and the AcroForm, which may only gain
 * signature fields (its /Fields extended) and /SigFlags. New objects are harmless unless something old points to
 * them, which the comparison catches. Object streams in an update are refused (we never write them).
 * Returns a problem in words, or null.
 */
import { PDF, PdfArray, PdfDict, PdfRef, PdfStream, type PdfObject } from "@libpdf/core";

function same(a: PdfObject | undefined | null, b: PdfObject | undefined | null): boolean {
  if (!a || !b) return a === b;
  if (a.type !== b.type) return false;
  if (a instanceof PdfRef && b instanceof PdfRef) return a.objectNumber === b.objectNumber && a.generation === b.generation;
  if (a instanceof PdfArray && b instanceof PdfArray) {
    if (a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!same(a.at(i), b.at(i))) return false;
    return true;
  }
  if (a instanceof PdfDict && b instanceof PdfDict) {
    if (!sameDict(a, b, new Set())) return false;
    if (a instanceof PdfStream && b instanceof PdfStream) return Buffer.from(a.data).equals(Buffer.from(b.data));
    return true;
  }
  const value = (o: PdfObject) => ("bytes" in o ? Buffer.from((o as { bytes: Uint8Array }).bytes).toString("hex") : String((o as { value?: unknown }).value));
  return value(a) === value(b);
}

function sameDict(a: PdfDict, b: PdfDict, except: Set<string>): boolean {
  const keys = (d: PdfDict) => [...d.keys()].map((k) => k.value).filter((k) => !except.has(k));
  const ka = keys(a);
  const kb = keys(b);
  if (ka.length !== kb.length) return false;
  return ka.every((k) => same(a.get(k), b.get(k)));
}

export async function evidenceOnlyUpdates(bytes: Uint8Array, sealEnd: number): Promise<string | null> {
  const tail = Buffer.from(bytes.subarray(sealEnd)).toString("latin1");
  if (/\/Type\s*\/ObjStm/.test(tail)) return "an update after the seal uses an object stream";
  const before = await PDF.load(bytes.subarray(0, sealEnd));
  const after = await PDF.load(bytes);
  const root = /\/Root\s+(\d+)\s+(\d+)\s+R/.exec(tail);
  const catalogRef = before.context.getRef(before.getCatalog()) ?? (root ? PdfRef.of(Number(root[1]), Number(root[2])) : null);
  const acroFormRef = before.getCatalog().getRef("AcroForm");
  const size = before.context.registry.nextObjectNumber;
  for (let n = 1; n < size; n++) {
    const ref = PdfRef.of(n, 0);
    const old = before.context.resolve(ref);
    const now = after.context.resolve(ref);
    if (same(old, now)) continue;
    if (catalogRef && n === catalogRef.objectNumber && old instanceof PdfDict && now instanceof PdfDict && sameDict(old, now, new Set(["DSS", "AcroForm"])))
      continue;
    if (
      acroFormRef &&
      n === acroFormRef.objectNumber &&
      old instanceof PdfDict &&
      now instanceof PdfDict &&
      sameDict(old, now, new Set(["Fields", "SigFlags"]))
    ) {
      const was = old.getArray("Fields");
      const is = now.getArray("Fields");
      if (was && is && is.length >= was.length && [...Array(was.length).keys()].every((i) => same(was.at(i), is.at(i)))) continue;
    }
    return `object ${n} was changed after the seal`;
  }
  return null;
}
