import { eq } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { organisations } from "@/server/db/schema";
import type { TSessionActor } from "@/server/domain/actor";
import { errors } from "@/server/http/errors";

export type TPlan = {
  features: { publicApi: boolean; webhooks: boolean; customFields: boolean };
  /** Packages that may be sent; null means unlimited. */
  packageAllowance: number | null;
  packagesUsed: number;
};

export async function readPlan(db: Db, organisationId: string): Promise<TPlan> {
  const [row] = await db.select().from(organisations).where(eq(organisations.id, organisationId));
  if (!row) throw errors.notFound("Organisation");
  return {
    features: { publicApi: row.featurePublicApi, webhooks: row.featureWebhooks, customFields: row.featureCustomFields },
    packageAllowance: row.packageAllowance,
    packagesUsed: row.packagesUsed,
  };
}

/** The plan as members read it; only the operator changes it (`npm run admin -- set-plan`). */
export async function getPlan(db: Db, actor: TSessionActor): Promise<TPlan> {
  return readPlan(db, actor.organisationId);
}
