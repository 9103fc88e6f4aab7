import { eq } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { organisations } from "@/server/db/schema";
import type { TActor } from "@/server/domain/access/actor";
import { auditChange } from "@/server/domain/audit/audit-change";
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
    await auditChange(tx, actor, { id: actor.organisation.id, organisationId: actor.organisation.id, workspaceId: null }, "organisation.ip_allowlist_changed", {
      before: before?.entries ?? [],
      after: entries,
    });
    return { entries };
  });
}
