import { asc, eq } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { templateRoles } from "@/server/db/schema";
import type { TActor } from "@/server/domain/access/actor";
import { findTemplate } from "./find-template";
import type { TTemplateRef } from "./schemas";
import { toRoleView } from "./template-view";

/** The template's roles in signing order; `roleIndex` is each one's position. */
export async function listTemplateRoles(db: Db, actor: TActor, input: TTemplateRef) {
  const template = await findTemplate(db, actor, input.templateId);
  const rows = await db.select().from(templateRoles).where(eq(templateRoles.templateId, template.id)).orderBy(asc(templateRoles.position));
  return { roles: rows.map(toRoleView) };
}
