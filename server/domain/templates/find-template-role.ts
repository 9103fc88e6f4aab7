import { and, eq } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { templateRoles } from "@/server/db/schema";
import { errors } from "@/server/lib/errors";

/** The role at `roleIndex` of a template already found in the actor's workspace, or 404. */
export async function findTemplateRole(db: Db, templateId: string, roleIndex: number) {
  const [row] = await db
    .select()
    .from(templateRoles)
    .where(and(eq(templateRoles.templateId, templateId), eq(templateRoles.position, roleIndex)));
  if (!row) throw errors.notFound("Role");
  return row;
}
