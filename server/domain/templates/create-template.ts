import { count, eq } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { organisations, templates } from "@/server/db/schema";
import type { TActor } from "@/server/domain/access/actor";
import { errors } from "@/server/lib/errors";
import { now } from "@/server/lib/clock";
import { newId } from "@/server/lib/ids";
import type { z } from "@/server/lib/zod";
import { auditChange } from "@/server/domain/audit/audit-change";
import type { ZCreateTemplate } from "./schemas";
import { getTemplate } from "./get-template";

export type TCreateTemplateInput = z.output<typeof ZCreateTemplate>;

/**
 * A new DRAFT template in the actor's workspace. The plan's `max_templates` counts the organisation's templates
 * in every workspace; the organisation row is locked first, so two creations at once cannot both take the last
 * place (the second counts after the first committed).
 */
export async function createTemplate(db: Db, actor: TActor, input: TCreateTemplateInput) {
  const id = await db.transaction(async (tx) => {
    const [org] = await tx
      .select({ maxTemplates: organisations.maxTemplates })
      .from(organisations)
      .where(eq(organisations.id, actor.organisation.id))
      .for("update");
    if (!org) throw errors.notFound("Organisation");
    if (org.maxTemplates !== null) {
      const [used] = await tx.select({ n: count() }).from(templates).where(eq(templates.organisationId, actor.organisation.id));
      if ((used?.n ?? 0) >= org.maxTemplates) {
        throw errors.paymentRequired({ kind: "limit", limit: org.maxTemplates, of: "templates" });
      }
    }
    const at = now();
    const [row] = await tx
      .insert(templates)
      .values({
        id: newId("tpl"),
        organisationId: actor.organisation.id,
        workspaceId: actor.workspace.id,
        name: input.name,
        description: input.description ?? null,
        status: "DRAFT",
        createdByUserId: actor.user.id,
        createdAt: at,
        updatedAt: at,
      })
      .returning();
    await auditChange(tx, actor, row!.id, "template.created", { name: row!.name });
    return row!.id;
  });
  return getTemplate(db, actor, { templateId: id });
}
