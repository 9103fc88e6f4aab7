import { and, eq } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { templateFields, templateRoles } from "@/server/db/schema";
import { errors } from "@/server/lib/errors";

/** A field of a template already found in the actor's workspace, with its role's roleIndex, or 404. */
export async function findTemplateField(db: Db, templateId: string, fieldId: string) {
  const [row] = await db
    .select({ field: templateFields, roleIndex: templateRoles.position })
    .from(templateFields)
    .innerJoin(templateRoles, eq(templateRoles.id, templateFields.roleId))
    .where(and(eq(templateFields.id, fieldId), eq(templateFields.templateId, templateId)));
  if (!row) throw errors.notFound("Field");
  return row;
}
