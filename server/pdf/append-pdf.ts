import { PDFDocument } from "pdf-lib";

/** Appends every page of `pdf` (saved bytes: pdf-lib writes embedded fonts only on save) to `doc`. */
export async function appendPdf(doc: PDFDocument, pdf: Uint8Array): Promise<void> {
  const source = await PDFDocument.load(pdf, { updateMetadata: false });
  const pages = await doc.copyPages(source, source.getPageIndices());
  for (const page of pages) doc.addPage(page);
}
