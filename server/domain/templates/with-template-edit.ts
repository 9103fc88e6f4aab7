import { eq } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { templates } from "@/server/db/schema";
import type { TActor } from "@/server/domain/access/actor";
import { assertNotLocked } from "@/server/domain/locks/assert-not-locked";
import { now } from "@/server/lib/clock";
import { auditChange } from "@/server/domain/audit/audit-change";
import type { TAuditAction } from "@/server/domain/audit/audit-actions";
import { guardActiveTemplate } from "./find-activation-blockers";
import { findTemplate } from "./find-template";

type TTemplateRow = typeof templates.$inferSelect;
export type TTemplateEdit<T> = { result: T; action: TAuditAction<"template">; data?: Record<string, unknown> };

/**
 * The frame of every change to a template or its roles and fields, in one transaction: the template is found in
 * the actor's workspace (404 otherwise) and locked for update (concurrent edits of one template apply one after
 * the other, so role positions stay dense), another member's edit lock refuses the change (409), then the
 * change runs (409 when it would stop an ACTIVE template making packages: guardActiveTemplate), `updatedAt` moves and the audit event is written. An error anywhere leaves nothing behind.
 */
export async function withTemplateEdit<T>(
  db: Db,
  actor: TActor,
  templateId: string,
  change: (tx: Db, template: TTemplateRow) => Promise<TTemplateEdit<T>>,
): Promise<T> {
  return db.transaction(async (tx) => {
    const template = await findTemplate(tx, actor, templateId, { forUpdate: true });
    await assertNotLocked(tx, actor, { type: "template", id: template.id });
    const keepsActive = await guardActiveTemplate(tx, template);
    const { result, action, data } = await change(tx, template);
    await keepsActive();
    await tx.update(templates).set({ updatedAt: now() }).where(eq(templates.id, template.id));
    await auditChange(tx, actor, template.id, action, data);
    return result;
  });
}
