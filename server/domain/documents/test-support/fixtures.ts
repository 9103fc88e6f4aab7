/** Shared by the documents tests: a template row and PDFs (the upload PUT is server/http/test-support/put-upload). */
import { PDF } from "@libpdf/core";
import type { Db } from "@/server/db/client";
import { templates } from "@/server/db/schema";
import { newId } from "@/server/lib/ids";
import type { TTestOrg } from "@/server/test/factories";
import { rawPdf } from "@/server/documents-io/test-support/raw-pdf";

/** Templates are T1's; the documents tests only need the row. */
export async function createTestTemplate(db: Db, org: Pick<TTestOrg, "organisationId" | "workspaceId">, workspaceId = org.workspaceId) {
  const id = newId("tpl");
  await db.insert(templates).values({ id, organisationId: org.organisationId, workspaceId, name: "Contract" });
  return id;
}

export async function makePdf(pages: ("a4" | "letter")[] = ["a4"], protect = false): Promise<Buffer> {
  const pdf = PDF.create();
  for (const size of pages) pdf.addPage({ size });
  if (protect) pdf.setProtection({ userPassword: "open-me", ownerPassword: "owner" });
  return Buffer.from(await pdf.save());
}

/** A PDF whose page tree lists `count` real pages. */
export function manyPagesPdf(count: number): Buffer {
  const kids = Array.from({ length: count }, (_, i) => `${i + 3} 0 R`).join(" ");
  const pages = Array.from({ length: count }, () => "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >>");
  return rawPdf(["<< /Type /Catalog /Pages 2 0 R >>", `<< /Type /Pages /Kids [${kids}] /Count ${count} >>`, ...pages]);
}

/** Damaged PDFs on which the parser throws: an xref chain that points at itself, and 200,000 nested arrays. */
export const LOOPING_XREF_PDF = Buffer.from("%PDF-1.4\nxref\n0 1\n0000000000 65535 f \ntrailer << /Size 1 /Prev 9 >>\nstartxref\n9\n%%EOF\n", "latin1");
export const DEEPLY_NESTED_PDF = Buffer.from(`%PDF-1.4\n1 0 obj ${"[".repeat(200_000)} endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n`);
