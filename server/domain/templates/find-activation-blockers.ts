import { asc, count, eq } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { documents, templateRoles } from "@/server/db/schema";

/**
 * Why a template cannot become ACTIVE yet, in words for the sender (empty when it can): it needs at least one
 * uploaded PDF document and one role, and no document may still be uploading or waiting for DOCX conversion
 * (a package made from it would carry a document nobody can sign).
 */
export async function findActivationBlockers(db: Db, templateId: string): Promise<string[]> {
  const [docs, [roles]] = await Promise.all([
    db
      .select({ name: documents.name, uploadState: documents.uploadState, contentType: documents.contentType })
      .from(documents)
      .where(eq(documents.templateId, templateId))
      .orderBy(asc(documents.position), asc(documents.createdAt)),
    db.select({ n: count() }).from(templateRoles).where(eq(templateRoles.templateId, templateId)),
  ]);
  const blockers: string[] = [];
  const isReadyPdf = (d: (typeof docs)[number]) => d.uploadState === "UPLOADED" && d.contentType === "application/pdf";
  if (!docs.some(isReadyPdf)) blockers.push("Upload at least one PDF document");
  for (const d of docs) {
    if (d.uploadState !== "UPLOADED") blockers.push(`“${d.name}” is not uploaded yet`);
    else if (d.contentType !== "application/pdf") blockers.push(`Convert “${d.name}” to PDF`);
  }
  if ((roles?.n ?? 0) === 0) blockers.push("Add at least one role");
  return blockers;
}
