/**
 * Draws the stored field values onto a copy of an original document and flattens its form, so that what was
 * signed is plain page content. The original bytes are only read.
 */
import { degrees, PDFArray, PDFDocument, PDFName, PDFRef, rgb, type PDFPage } from "pdf-lib";
import { createTextKit, normaliseLine, type TTextKit } from "./create-text-kit";
import { handwritingFor } from "./handwriting-font";
import { SealingError } from "./sealing-error";
import type { TSealField } from "./types";

const INK = rgb(0.05, 0.1, 0.3);
const MIN_FONT = 4;

type TPlacement = { rotate: number; toUser(x: number, y: number): { x: number; y: number }; width: number; height: number };

/** Maps the editor's top-left, displayed-page coordinates to the page's user space, whatever its /Rotate. */
function placement(page: PDFPage): TPlacement {
  const crop = page.getCropBox();
  const rotate = (((page.getRotation().angle % 360) + 360) % 360) as 0 | 90 | 180 | 270;
  const { x: cx, y: cy, width: cw, height: ch } = crop;
  const map: Record<number, (x: number, y: number) => { x: number; y: number }> = {
    0: (x, y) => ({ x: cx + x, y: cy + ch - y }),
    90: (x, y) => ({ x: cx + y, y: cy + x }),
    180: (x, y) => ({ x: cx + cw - x, y: cy + y }),
    270: (x, y) => ({ x: cx + cw - y, y: cy + ch - x }),
  };
  const toUser = map[rotate];
  if (!toUser) throw new SealingError(`Unsupported page rotation ${page.getRotation().angle}`);
  const sideways = rotate === 90 || rotate === 270;
  return { rotate, toUser, width: sideways ? ch : cw, height: sideways ? cw : ch };
}

function fieldText(field: TSealField): string | undefined {
  if (field.type === "checkbox") return undefined;
  return field.text ?? undefined;
}

/** Largest size ≤ 70 % of the box height at which the text fits the width (single-line values). */
function fitSize(kit: TTextKit, text: string, width: number, height: number): number {
  const size = Math.max(MIN_FONT, Math.min(height * 0.7, 24));
  const w = kit.width(text, size);
  return w <= width || w === 0 ? size : Math.max(MIN_FONT, (size * width) / w);
}

function drawLine(page: PDFPage, kit: TTextKit, p: TPlacement, text: string, x: number, baseline: number, size: number) {
  for (const run of kit.layout(text, size).runs) {
    const at = p.toUser(x + run.offset, baseline);
    page.drawText(run.text, { x: at.x, y: at.y, size, font: run.font, color: INK, rotate: degrees(p.rotate) });
  }
}

async function drawField(doc: PDFDocument, page: PDFPage, kit: TTextKit | undefined, field: TSealField) {
  const p = placement(page);
  const { x, y, width, height } = field;
  if (field.type === "checkbox") {
    if (!field.checked) return;
    // A tick drawn as two strokes: no font needed, and it prints the same everywhere.
    const s = Math.min(width, height);
    const ox = x + (width - s) / 2;
    const oy = y + (height - s) / 2;
    const points = [
      [ox + s * 0.18, oy + s * 0.55],
      [ox + s * 0.42, oy + s * 0.8],
      [ox + s * 0.85, oy + s * 0.2],
    ] as const;
    for (let i = 0; i < 2; i++) {
      const a = points[i]!;
      const b = points[i + 1]!;
      page.drawLine({ start: p.toUser(a[0], a[1]), end: p.toUser(b[0], b[1]), thickness: Math.max(1, s * 0.1), color: INK });
    }
    return;
  }
  if ((field.type === "signature" || field.type === "initials") && field.image) {
    let image;
    try {
      image = await doc.embedPng(field.image);
    } catch {
      throw new SealingError(`The ${field.type} image on page ${field.pageIndex + 1} is not a readable PNG`);
    }
    const scale = Math.min(width / image.width, height / image.height);
    const w = image.width * scale;
    const h = image.height * scale;
    const bottomLeft = p.toUser(x + (width - w) / 2, y + (height + h) / 2);
    page.drawImage(image, { x: bottomLeft.x, y: bottomLeft.y, width: w, height: h, rotate: degrees(p.rotate) });
    return;
  }
  const text = fieldText(field);
  // The kit exists whenever a field has text (it is made from every field's text).
  if (!text || !kit) return;
  if (field.type === "text") {
    // Free text may be long: wrap, shrinking until it fits the box (down to the minimum size).
    let size = Math.max(MIN_FONT, Math.min(12, height * 0.7));
    let lines = kit.wrap(text, size, width);
    while (size > MIN_FONT && lines.length * size * 1.2 > height) {
      size = Math.max(MIN_FONT, size - 0.5);
      lines = kit.wrap(text, size, width);
    }
    lines.forEach((line, i) => drawLine(page, kit, p, line, x, y + size * (i + 1) * 1.2 - size * 0.25, size));
    return;
  }
  if (field.type === "signature" || field.type === "initials") {
    // A typed signature in the handwriting face where it has the characters (handwriting-font.ts), as on the page.
    const hand = await handwritingFor(doc, normaliseLine(text));
    if (hand) {
      const start = Math.max(MIN_FONT, Math.min(height * 0.7, 24));
      const w = hand.width(start);
      const size = w <= width || w === 0 ? start : Math.max(MIN_FONT, (start * width) / w);
      let offset = 0;
      for (const run of hand.runs) {
        const at = p.toUser(x + offset, y + height / 2 + size * 0.35);
        page.drawText(run.text, { x: at.x, y: at.y, size, font: run.font, color: INK, rotate: degrees(p.rotate) });
        offset += run.font.widthOfTextAtSize(run.text, size);
      }
      return;
    }
  }
  const size = fitSize(kit, text, width, height);
  drawLine(page, kit, p, text, x, y + height / 2 + size * 0.35, size);
}

function flattenForm(doc: PDFDocument) {
  const form = doc.getForm();
  if (form.getFields().length === 0) return;
  try {
    // Keep each field's own appearance: regenerating it would draw with Helvetica, which cannot show
    // non-Latin values.
    form.flatten({ updateFieldAppearances: false });
  } catch {
    try {
      form.flatten({ updateFieldAppearances: true });
    } catch (error) {
      throw new SealingError(`The document's form could not be flattened: ${(error as Error).message}`);
    }
  }
  // pdf-lib deletes the widget objects but can leave their references in the page's /Annots (measured: poppler
  // then reports "Invalid XRef entry"); drop references to objects that no longer exist.
  for (const page of doc.getPages()) {
    const annots = page.node.lookupMaybe(PDFName.of("Annots"), PDFArray);
    if (!annots) continue;
    for (let i = annots.size() - 1; i >= 0; i--) {
      const item = annots.get(i);
      if (item instanceof PDFRef && !doc.context.lookup(item)) annots.remove(i);
    }
    if (annots.size() === 0) page.node.delete(PDFName.of("Annots"));
  }
}

/** The original with every value drawn and its form flattened, as an unsaved pdf-lib document. */
export async function stampDocument(original: Uint8Array, fields: TSealField[]): Promise<PDFDocument> {
  let doc: PDFDocument;
  try {
    // pdf-lib may keep references into the buffer it is given: hand it a copy so the original is never touched.
    doc = await PDFDocument.load(original.slice(), { updateMetadata: false });
  } catch (error) {
    const encrypted = /encrypt/i.test((error as Error).message);
    throw new SealingError(encrypted ? "Encrypted PDFs cannot be sealed" : "The original document is not a readable PDF");
  }
  flattenForm(doc);
  const pageCount = doc.getPageCount();
  for (const field of fields) {
    if (!Number.isInteger(field.pageIndex) || field.pageIndex < 0 || field.pageIndex >= pageCount) {
      throw new SealingError(`A ${field.type} field is on page ${field.pageIndex + 1}, but the document has ${pageCount}`);
    }
    if (![field.x, field.y, field.width, field.height].every(Number.isFinite) || field.width <= 0 || field.height <= 0) {
      throw new SealingError(`A ${field.type} field on page ${field.pageIndex + 1} has an invalid position`);
    }
  }
  // Fonts are read (and embedded) only when there is text to draw: a document with ticks and drawn signatures
  // alone, or the upload check's rehearsal (rehearse-seal.ts), needs none.
  const texts = fields.map(fieldText).filter((t): t is string => Boolean(t));
  const kit = texts.length > 0 ? await createTextKit(doc, texts) : undefined;
  for (const field of fields) await drawField(doc, doc.getPage(field.pageIndex), kit, field);
  return doc;
}
