import { eq } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { organisations } from "@/server/db/schema";
import { auditChange, OPERATOR } from "@/server/domain/audit/audit-change";
import { errors } from "@/server/lib/errors";
import { now } from "@/server/lib/clock";
import { readPlan } from "./get-plan";
import type { TPlan, TSetPlan } from "./schemas";

/**
 * The operator's plan change (the CLI's `set-plan`): there is no session actor, the operator has shell access
 * to the instance. Only the fields given change; the audit event records them with no acting user.
 */
export async function setPlan(db: Db, input: TSetPlan): Promise<TPlan> {
  const { organisationId, publicApi, webhooks, customFields, packageAllowance, maxTemplates, maxRecipientsPerPackage } = input;
  const changes = {
    ...(publicApi === undefined ? {} : { featurePublicApi: publicApi }),
    ...(webhooks === undefined ? {} : { featureWebhooks: webhooks }),
    ...(customFields === undefined ? {} : { featureCustomFields: customFields }),
    ...(packageAllowance === undefined ? {} : { packageAllowance }),
    ...(maxTemplates === undefined ? {} : { maxTemplates }),
    ...(maxRecipientsPerPackage === undefined ? {} : { maxRecipientsPerPackage }),
  };
  return db.transaction(async (tx) => {
    const updated = await tx
      .update(organisations)
      .set({ ...changes, updatedAt: now() })
      .where(eq(organisations.id, organisationId))
      .returning({ id: organisations.id });
    if (updated.length === 0) throw errors.notFound("Organisation");
    await auditChange(tx, OPERATOR, { id: organisationId, organisationId, workspaceId: null }, "organisation.plan_changed", {
      publicApi,
      webhooks,
      customFields,
      packageAllowance,
      maxTemplates,
      maxRecipientsPerPackage,
    });
    return readPlan(tx, organisationId);
  });
}
