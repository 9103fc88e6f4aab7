import { eq } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { organisations } from "@/server/db/schema";
import type { TActor } from "@/server/domain/access/actor";
import { errors } from "@/server/lib/errors";
import type { TPlan } from "./schemas";

export async function readPlan(db: Db, organisationId: string): Promise<TPlan> {
  const [row] = await db.select().from(organisations).where(eq(organisations.id, organisationId));
  if (!row) throw errors.notFound("Organisation");
  return {
    features: { publicApi: row.featurePublicApi, webhooks: row.featureWebhooks, customFields: row.featureCustomFields },
    packageAllowance: row.packageAllowance,
    packagesUsed: row.packagesUsed,
    maxTemplates: row.maxTemplates,
    maxRecipientsPerPackage: row.maxRecipientsPerPackage,
  };
}

/** The plan as members read it; only the operator changes it (`npm run admin -- set-plan`). */
export async function getPlan(db: Db, actor: TActor): Promise<TPlan> {
  return readPlan(db, actor.organisation.id);
}
