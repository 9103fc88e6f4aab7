import { eq } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { organisations } from "@/server/db/schema";
import type { TSessionActor } from "@/server/domain/actor";
import { assertOwner } from "./assert-owner";

export type TIpAllowlist = { entries: string[] };

/** The organisation's API IP allowlist (owner only); empty means no restriction. */
export async function getIpAllowlist(db: Db, actor: TSessionActor): Promise<TIpAllowlist> {
  assertOwner(actor);
  const [row] = await db
    .select({ entries: organisations.ipAllowlist })
    .from(organisations)
    .where(eq(organisations.id, actor.organisationId));
  return { entries: row?.entries ?? [] };
}
