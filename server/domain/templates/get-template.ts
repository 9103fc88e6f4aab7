import { asc, eq } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { documents, templateRoles } from "@/server/db/schema";
import type { TActor } from "@/server/domain/access/actor";
import { findLock } from "@/server/domain/locks/assert-not-locked";
import { findActivationBlockers } from "./find-activation-blockers";
import { findTemplate } from "./find-template";
import type { TTemplateRef } from "./schemas";
import { readTemplateFields } from "./read-template-fields";
import { toTemplateView } from "./template-view";

/** The whole template: documents, roles (by roleIndex), fields, merge fields, questions, the edit lock, and what blocks activation. */
export async function getTemplate(db: Db, actor: TActor, input: TTemplateRef) {
  const row = await findTemplate(db, actor, input.templateId);
  const [docs, roles, fields, lock, activationBlockers] = await Promise.all([
    db.select().from(documents).where(eq(documents.templateId, row.id)).orderBy(asc(documents.position), asc(documents.createdAt), asc(documents.id)),
    db.select().from(templateRoles).where(eq(templateRoles.templateId, row.id)).orderBy(asc(templateRoles.position)),
    readTemplateFields(db, row.id),
    findLock(db, { type: "template", id: row.id }),
    findActivationBlockers(db, row.id),
  ]);
  return toTemplateView(row, { documents: docs, roles, fields, lock, activationBlockers }, actor);
}
