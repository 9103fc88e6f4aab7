import { and, count, eq, isNotNull } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { templateFields, templates, type TTemplateStatus } from "@/server/db/schema";
import type { TActor } from "@/server/domain/access/actor";
import { errors } from "@/server/lib/errors";
import type { z } from "@/server/lib/zod";
import { findActivationBlockers } from "./find-activation-blockers";
import { getTemplate } from "./get-template";
import type { TTemplateRef, ZUpdateTemplate } from "./schemas";
import { withTemplateEdit } from "./with-template-edit";

export type TUpdateTemplateInput = TTemplateRef & z.output<typeof ZUpdateTemplate>;

export const ACTIVATION_REFUSED = "A template needs an uploaded PDF document, a role and a required signature field for each role to become ACTIVE";

/**
 * Changes the name, description, status, merge fields or sender questions (lists are replaced whole).
 * Status: every move is allowed (DRAFT → ARCHIVED, ACTIVE ↔ ARCHIVED, back to DRAFT) except becoming ACTIVE
 * while the template has activation blockers (400 with the reasons). A merge field still named by a field's
 * `mergeFieldKey` cannot be removed (422 at `mergeFields`).
 */
export async function updateTemplate(db: Db, actor: TActor, input: TUpdateTemplateInput) {
  await withTemplateEdit(db, actor, input.templateId, async (tx, template) => {
    const changes: Partial<typeof templates.$inferInsert> = {};
    if (input.name !== undefined) changes.name = input.name;
    if (input.description !== undefined) changes.description = input.description;
    if (input.questions !== undefined) changes.questions = input.questions;
    if (input.mergeFields !== undefined) {
      await assertMergeFieldsKeepUsedKeys(tx, template.id, new Set(input.mergeFields.map((m) => m.key)));
      changes.mergeFields = input.mergeFields.map((m) => ({ key: m.key, label: m.label, defaultValue: m.defaultValue ?? null }));
    }
    const statusChange = input.status !== undefined && input.status !== template.status ? input.status : undefined;
    if (statusChange === "ACTIVE") {
      const blockers = await findActivationBlockers(tx, template.id);
      if (blockers.length > 0) throw errors.badRequest(`${ACTIVATION_REFUSED}: ${blockers.join("; ")}`);
    }
    if (statusChange) changes.status = statusChange;
    if (Object.keys(changes).length > 0) await tx.update(templates).set(changes).where(eq(templates.id, template.id));
    const from: TTemplateStatus = template.status;
    return statusChange
      ? { result: null, action: "template.status_changed", data: { from, to: statusChange, changed: Object.keys(changes) } }
      : { result: null, action: "template.updated", data: { changed: Object.keys(changes) } };
  });
  return getTemplate(db, actor, { templateId: input.templateId });
}

async function assertMergeFieldsKeepUsedKeys(tx: Db, templateId: string, kept: Set<string>): Promise<void> {
  const used = await tx
    .select({ key: templateFields.mergeFieldKey, n: count() })
    .from(templateFields)
    .where(and(eq(templateFields.templateId, templateId), isNotNull(templateFields.mergeFieldKey)))
    .groupBy(templateFields.mergeFieldKey);
  const removed = used.filter((u) => u.key !== null && !kept.has(u.key));
  if (removed.length === 0) return;
  throw errors.validation({
    mergeFields: removed.map((u) => `The merge field “${u.key}” is used by ${u.n} field${u.n === 1 ? "" : "s"}; clear their merge field first`),
  });
}
