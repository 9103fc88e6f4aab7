import { eq } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { organisations } from "@/server/db/schema";
import type { TActor } from "@/server/domain/access/actor";
import { recordAudit } from "@/server/domain/audit/record-audit";
import { now } from "@/server/lib/clock";
import { type TIpAllowlist, type TSetIpAllowlist } from "./schemas";

/**
 * Replaces the allowlist (owner only). An empty list lifts the restriction. It applies to API keys from
 * their next request; signed-in sessions are not affected.
 */
export async function setIpAllowlist(db: Db, actor: TActor, input: TSetIpAllowlist): Promise<TIpAllowlist> {
  const entries = [...new Set(input.entries)];
  return db.transaction(async (tx) => {
    const [before] = await tx.select({ entries: organisations.ipAllowlist }).from(organisations).where(eq(organisations.id, actor.organisation.id));
    await tx.update(organisations).set({ ipAllowlist: entries, updatedAt: now() }).where(eq(organisations.id, actor.organisation.id));
    await recordAudit(tx, {
      organisationId: actor.organisation.id,
      subjectType: "organisation",
      subjectId: actor.organisation.id,
      action: "organisation.ip_allowlist_changed",
      actorUserId: actor.user.id,
      data: { before: before?.entries ?? [], after: entries },
    });
    return { entries };
  });
}
