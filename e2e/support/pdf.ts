import { PDF, StandardFonts } from "@libpdf/core";

/** An A4 PDF made here, one page per entry: its title at the top and, when given, one line of text below it. */
export async function titledPdf(pages: [title: string, line?: string][]): Promise<Buffer> {
  const pdf = PDF.create();
  for (const [title, line] of pages) {
    const page = pdf.addPage({ size: "a4" });
    page.drawText(title, { x: 56, y: 770, size: 20, font: StandardFonts.Helvetica });
    if (line) page.drawText(line, { x: 56, y: 730, size: 11, font: StandardFonts.Helvetica });
  }
  return Buffer.from(await pdf.save());
}
