import { asc, eq } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { templateFields, templateRoles } from "@/server/db/schema";

/** A template's fields with their role's current position (the roleIndex), in role, document, page order. */
export async function readTemplateFields(db: Db, templateId: string) {
  return db
    .select({ field: templateFields, roleIndex: templateRoles.position })
    .from(templateFields)
    .innerJoin(templateRoles, eq(templateRoles.id, templateFields.roleId))
    .where(eq(templateFields.templateId, templateId))
    .orderBy(
      asc(templateRoles.position),
      asc(templateFields.documentId),
      asc(templateFields.page),
      asc(templateFields.y),
      asc(templateFields.x),
      asc(templateFields.id),
    );
}
