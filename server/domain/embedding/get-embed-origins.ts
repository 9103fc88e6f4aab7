import { asc, eq } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { embedOrigins } from "@/server/db/schema";
import type { TActor } from "@/server/domain/access/actor";
import type { TEmbedOrigins } from "./schemas";

/** The origins allowed to frame the actor's workspace's embedded signing pages, in alphabetical order. */
export async function getEmbedOrigins(db: Db, actor: Pick<TActor, "workspace">): Promise<TEmbedOrigins> {
  const rows = await db
    .select({ origin: embedOrigins.origin })
    .from(embedOrigins)
    .where(eq(embedOrigins.workspaceId, actor.workspace.id))
    .orderBy(asc(embedOrigins.origin));
  return { origins: rows.map((r) => r.origin) };
}
