import type { Db } from "@/server/db/client";
import type { TSessionActor } from "@/server/domain/actor";
import type { TWebhookCtx } from "@/server/domain/webhooks/endpoint-view";
import { errors } from "@/server/http/errors";
import { canManageWebhooks } from "./can-manage-webhooks";
import { resolveCurrentWorkspace, type TCurrentWorkspace } from "./resolve-current-workspace";

/**
 * Who manages webhooks from the app, and where: the signed-in member (403 without canManageWebhooks, unless
 * owner) in the current workspace of their organisation. It satisfies the engine's TWebhookCtx, so the
 * engine's functions (create, update, rotate, delete) scope their queries with it.
 */
export type TWebhookScope = TWebhookCtx & { actor: TSessionActor; workspace: TCurrentWorkspace };

export async function resolveWebhookScope(db: Db, actor: TSessionActor, input: { workspaceId?: string | null }): Promise<TWebhookScope> {
  if (!(await canManageWebhooks(db, actor))) throw errors.missingPermission("canManageWebhooks");
  const workspace = await resolveCurrentWorkspace(db, actor, { requestedId: input.workspaceId });
  return { actor, organisation: { id: actor.organisationId }, workspace };
}
