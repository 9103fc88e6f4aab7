import { and, asc, desc, eq } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { workspaces } from "@/server/db/schema";

export type TCurrentWorkspace = { id: string; name: string; slug: string; isDefault: boolean; isTest: boolean };

/**
 * The workspace the app acts in for this request. The browser's choice (a cookie) is only a wish: it is
 * honoured when it names a workspace of the actor's organisation, otherwise the default workspace is used —
 * so a stale or forged cookie can never reach into another organisation.
 */
export async function resolveCurrentWorkspace(db: Db, actor: { organisationId: string }, input: { requestedId?: string | null }): Promise<TCurrentWorkspace> {
  if (input.requestedId) {
    const [chosen] = await db
      .select({ id: workspaces.id, name: workspaces.name, slug: workspaces.slug, isDefault: workspaces.isDefault, isTest: workspaces.isTest })
      .from(workspaces)
      .where(and(eq(workspaces.id, input.requestedId), eq(workspaces.organisationId, actor.organisationId)));
    if (chosen) return chosen;
  }
  const [fallback] = await db
    .select({ id: workspaces.id, name: workspaces.name, slug: workspaces.slug, isDefault: workspaces.isDefault, isTest: workspaces.isTest })
    .from(workspaces)
    .where(eq(workspaces.organisationId, actor.organisationId))
    .orderBy(desc(workspaces.isDefault), asc(workspaces.name), asc(workspaces.id))
    .limit(1);
  if (!fallback) throw new Error(`organisation ${actor.organisationId} has no workspace`);
  return fallback;
}
