import { eq } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { organisations } from "@/server/db/schema";
import type { TSessionActor } from "@/server/domain/actor";
import { recordAudit } from "@/server/domain/audit/record-audit";
import { parseOrThrow } from "@/server/http/validation";
import { z } from "@/server/http/zod";
import { now } from "@/server/lib/clock";
import { assertOwner } from "./assert-owner";
import type { TIpAllowlist } from "./get-ip-allowlist";
import { ZIpAllowlistEntry } from "./ip-entry";

/** Each entry is validated where it stands, so a 422 names it as `entries.<index>`. */
export const ZSetIpAllowlist = z.object({ entries: z.array(ZIpAllowlistEntry).max(200, "Use at most 200 entries") });
export type TSetIpAllowlist = z.input<typeof ZSetIpAllowlist>;

/**
 * Replaces the allowlist (owner only). An empty list lifts the restriction. It applies to API keys from
 * their next request; signed-in sessions are not affected.
 */
export async function setIpAllowlist(db: Db, actor: TSessionActor, input: TSetIpAllowlist): Promise<TIpAllowlist> {
  assertOwner(actor);
  const entries = [...new Set(parseOrThrow(ZSetIpAllowlist, input, "input").entries)];
  return db.transaction(async (tx) => {
    const [before] = await tx
      .select({ entries: organisations.ipAllowlist })
      .from(organisations)
      .where(eq(organisations.id, actor.organisationId));
    await tx.update(organisations).set({ ipAllowlist: entries, updatedAt: now() }).where(eq(organisations.id, actor.organisationId));
    await recordAudit(tx, {
      organisationId: actor.organisationId,
      subjectType: "organisation",
      subjectId: actor.organisationId,
      action: "organisation.ip_allowlist_changed",
      actorUserId: actor.userId,
      data: { before: before?.entries ?? [], after: entries },
    });
    return { entries };
  });
}
