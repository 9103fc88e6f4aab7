import type { Db } from "@/server/db/client";
import type { TActor } from "@/server/domain/access/actor";
import { findTemplate } from "./find-template";
import type { TTemplateRef } from "./schemas";
import { readTemplateFields } from "./read-template-fields";
import { toFieldView } from "./template-view";

/** The template's fields, each with its role's roleIndex. */
export async function listTemplateFields(db: Db, actor: TActor, input: TTemplateRef) {
  const template = await findTemplate(db, actor, input.templateId);
  const rows = await readTemplateFields(db, template.id);
  return { fields: rows.map((r) => toFieldView(r.field, r.roleIndex)) };
}
