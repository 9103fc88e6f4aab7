import { and, eq } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { documents, templateRoles, type templates, type TFieldType } from "@/server/db/schema";
import { errors, type TErrorDetails } from "@/server/lib/errors";

export type TFieldPlacement = {
  documentId: string;
  roleIndex: number;
  type: TFieldType;
  page: number;
  x: number;
  y: number;
  width: number;
  height: number;
  mergeFieldKey: string | null;
};

/** Points as people read them: whole numbers stay whole, others keep two decimals. */
const pt = (n: number) => String(Math.round(n * 100) / 100);

/**
 * Every rule a field's placement must meet, all reported at once (422 keyed by field): the document is this
 * template's and an uploaded PDF whose page sizes are known, the page exists, the box lies inside that page as
 * displayed, the role exists, and a merge field key names one of the template's merge fields. Returns the id of
 * the role at `roleIndex`.
 */
export async function checkFieldPlacement(tx: Db, template: typeof templates.$inferSelect, field: TFieldPlacement): Promise<string> {
  const details: TErrorDetails = {};
  const add = (key: string, message: string) => (details[key] ??= []).push(message);

  const [doc] = await tx
    .select()
    .from(documents)
    .where(and(eq(documents.id, field.documentId), eq(documents.templateId, template.id)));
  if (!doc) add("documentId", "No document with this id in this template");
  else if (doc.uploadState !== "UPLOADED") add("documentId", `“${doc.name}” is not uploaded yet`);
  else if (doc.contentType !== "application/pdf" || !doc.pageSizes || !doc.pageCount)
    add("documentId", `Convert “${doc.name}” to PDF before placing fields on it`);
  else {
    const pageCount = Math.min(doc.pageCount, doc.pageSizes.length);
    const size = field.page <= pageCount ? doc.pageSizes[field.page - 1] : undefined;
    if (!size) add("page", `“${doc.name}” has ${pageCount} page${pageCount === 1 ? "" : "s"}`);
    else {
      const where = `Page ${field.page} is ${pt(size.width)} × ${pt(size.height)} points`;
      if (field.x >= size.width) add("x", `${where}: x must be below ${pt(size.width)}`);
      else if (field.x + field.width > size.width) add("width", `${where}: x + width must be at most ${pt(size.width)}`);
      if (field.y >= size.height) add("y", `${where}: y must be below ${pt(size.height)}`);
      else if (field.y + field.height > size.height) add("height", `${where}: y + height must be at most ${pt(size.height)}`);
    }
  }

  const [role] = await tx
    .select({ id: templateRoles.id })
    .from(templateRoles)
    .where(and(eq(templateRoles.templateId, template.id), eq(templateRoles.position, field.roleIndex)));
  if (!role) add("roleIndex", "No role at this index in this template");

  if (field.mergeFieldKey !== null) {
    if (field.type !== "text") add("mergeFieldKey", "Only text fields take a merge field");
    else if (!template.mergeFields.some((m) => m.key === field.mergeFieldKey)) add("mergeFieldKey", `No merge field “${field.mergeFieldKey}” on this template`);
  }

  if (Object.keys(details).length > 0 || !role) throw errors.validation(details);
  return role.id;
}
