import type { TSessionActor } from "@/server/domain/actor";
import { errors } from "@/server/http/errors";

/**
 * Owner-only actions (keys, members, roles, workspaces, security) refuse everyone else with 403. The actor is
 * read from the database on every request (server/auth/load-session-actor.ts), so the flag is current.
 */
export function assertOwner(actor: TSessionActor): void {
  if (!actor.isOwner) throw errors.forbidden("Only the organisation's owner can do this");
}
