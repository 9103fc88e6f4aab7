import { eq } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { organisations } from "@/server/db/schema";
import type { TActor } from "@/server/domain/access/actor";

import type { TIpAllowlist } from "./schemas";

/** The organisation's API IP allowlist (owner only); empty means no restriction. */
export async function getIpAllowlist(db: Db, actor: TActor): Promise<TIpAllowlist> {
  const [row] = await db.select({ entries: organisations.ipAllowlist }).from(organisations).where(eq(organisations.id, actor.organisation.id));
  return { entries: row?.entries ?? [] };
}
