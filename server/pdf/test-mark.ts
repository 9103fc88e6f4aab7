/**
 * The mark every page of a test workspace's sealed files carries (issue 23, docs/decisions/test-mode.md): a red
 * band across the top of the page and a large diagonal line across it, both reading TEST_MARK, drawn into the
 * page content before the file is signed, so the signature covers it and no viewer can hide it. Drawn in the
 * page's unrotated space, on the visible (crop) box.
 */
import { degrees, PDFDocument, rgb, StandardFonts } from "pdf-lib";

export const TEST_MARK = "TEST — not a valid signature";

const RED = rgb(0.75, 0.1, 0.1);

/** `bytes` with TEST_MARK on every page (a new file; the input is not changed). */
export async function markTestPages(bytes: Uint8Array): Promise<Uint8Array> {
  const pdf = await PDFDocument.load(bytes, { updateMetadata: false });
  const font = await pdf.embedFont(StandardFonts.HelveticaBold);
  for (const page of pdf.getPages()) {
    const box = page.getCropBox();
    const band = Math.min(22, box.height / 10);
    const size = Math.min(11, band * 0.55);
    page.drawRectangle({ x: box.x, y: box.y + box.height - band, width: box.width, height: band, color: RED, opacity: 0.9 });
    const label = font.widthOfTextAtSize(TEST_MARK, size);
    page.drawText(TEST_MARK, { x: box.x + (box.width - label) / 2, y: box.y + box.height - band + (band - size) / 2 + 1, size, font, color: rgb(1, 1, 1) });
    // Diagonal, corner to corner, sized to fit the page's diagonal.
    const angle = Math.atan2(box.height, box.width);
    const diagonal = Math.hypot(box.width, box.height);
    const big = Math.max(12, Math.min(64, (diagonal * 0.75 * 1000) / (font.widthOfTextAtSize(TEST_MARK, 1000) || 1)));
    const width = font.widthOfTextAtSize(TEST_MARK, big);
    const cx = box.x + box.width / 2;
    const cy = box.y + box.height / 2;
    // Start so that the text's centre lands on the page's centre.
    const x = cx - (Math.cos(angle) * width) / 2 + (Math.sin(angle) * big) / 3;
    const y = cy - (Math.sin(angle) * width) / 2 - (Math.cos(angle) * big) / 3;
    page.drawText(TEST_MARK, { x, y, size: big, font, color: RED, opacity: 0.22, rotate: degrees((angle * 180) / Math.PI) });
  }
  return pdf.save();
}
