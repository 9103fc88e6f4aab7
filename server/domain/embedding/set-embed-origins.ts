import { eq } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { embedOrigins, workspaces } from "@/server/db/schema";
import type { TActor } from "@/server/domain/access/actor";
import { auditChange } from "@/server/domain/audit/audit-change";
import { newId } from "@/server/lib/ids";
import { getEmbedOrigins } from "./get-embed-origins";
import type { TEmbedOrigins, TSetEmbedOrigins } from "./schemas";

/**
 * Replaces the workspace's embed origins (the schema has validated each and refused repeats). Serialised on the
 * workspace row, so two concurrent replacements end with one of the two lists, never a mix. Embedded signing
 * URLs already issued or opened keep the origin they were issued for (a removed origin gets no new URL).
 */
export async function setEmbedOrigins(db: Db, actor: TActor, input: TSetEmbedOrigins): Promise<TEmbedOrigins> {
  return db.transaction(async (tx) => {
    await tx.select({ id: workspaces.id }).from(workspaces).where(eq(workspaces.id, actor.workspace.id)).for("update");
    const before = await getEmbedOrigins(tx, actor);
    await tx.delete(embedOrigins).where(eq(embedOrigins.workspaceId, actor.workspace.id));
    if (input.origins.length > 0) {
      await tx
        .insert(embedOrigins)
        .values(input.origins.map((origin) => ({ id: newId("emo"), organisationId: actor.organisation.id, workspaceId: actor.workspace.id, origin })));
    }
    const after = await getEmbedOrigins(tx, actor);
    await auditChange(
      tx,
      actor,
      { id: actor.workspace.id, organisationId: actor.organisation.id, workspaceId: actor.workspace.id },
      "workspace.embed_origins_changed",
      { before: before.origins, after: after.origins, ...(actor.apiKey ? { apiKeyId: actor.apiKey.id } : {}) },
    );
    return after;
  });
}
