import { eq } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { organisations } from "@/server/db/schema";
import { recordAudit } from "@/server/domain/audit/record-audit";
import { errors } from "@/server/http/errors";
import { parseOrThrow } from "@/server/http/validation";
import { z } from "@/server/http/zod";
import { now } from "@/server/lib/clock";
import { readPlan, type TPlan } from "./get-plan";

export const ZSetPlan = z.object({
  organisationId: z.string().min(1),
  publicApi: z.boolean().optional(),
  webhooks: z.boolean().optional(),
  customFields: z.boolean().optional(),
  /** null: unlimited. */
  packageAllowance: z.number().int().min(0).nullable().optional(),
});
export type TSetPlan = z.input<typeof ZSetPlan>;

/**
 * The operator's plan change (the CLI's `set-plan`): there is no session actor, the operator has shell access
 * to the instance. Only the fields given change; the audit event records them with no acting user.
 */
export async function setPlan(db: Db, input: TSetPlan): Promise<TPlan> {
  const { organisationId, publicApi, webhooks, customFields, packageAllowance } = parseOrThrow(ZSetPlan, input, "input");
  const changes = {
    ...(publicApi === undefined ? {} : { featurePublicApi: publicApi }),
    ...(webhooks === undefined ? {} : { featureWebhooks: webhooks }),
    ...(customFields === undefined ? {} : { featureCustomFields: customFields }),
    ...(packageAllowance === undefined ? {} : { packageAllowance }),
  };
  return db.transaction(async (tx) => {
    const updated = await tx
      .update(organisations)
      .set({ ...changes, updatedAt: now() })
      .where(eq(organisations.id, organisationId))
      .returning({ id: organisations.id });
    if (updated.length === 0) throw errors.notFound("Organisation");
    await recordAudit(tx, {
      organisationId,
      subjectType: "organisation",
      subjectId: organisationId,
      action: "organisation.plan_changed",
      data: { by: "operator", publicApi, webhooks, customFields, packageAllowance },
    });
    return readPlan(tx, organisationId);
  });
}
