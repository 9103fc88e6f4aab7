import type { Db } from "@/server/db/client";
import { getEndpointHealth } from "./get-endpoint-health";
import { toEndpointView } from "@/server/domain/webhooks/endpoints/endpoint-view";
import { findEndpoint } from "@/server/domain/webhooks/endpoints/find-endpoint";
import { now } from "@/server/lib/clock";
import { toHealthView } from "./health-view";
import type { TActor } from "@/server/domain/access/actor";

/**
 * The endpoint page's header: the endpoint's settings and state, its 24-hour figures, and until when the
 * previous secret still signs after a rotation (null when no previous secret signs any more).
 */
export async function getEndpointSummary(db: Db, actor: TActor, input: { endpointId: string }) {
  const row = await findEndpoint(db, actor, input.endpointId);
  const at = now();
  const [health] = await getEndpointHealth(db, actor.workspace.id, at, { endpointId: row.id });
  const previousSecretSignsUntil =
    row.previousSecretEncrypted && row.previousSecretExpiresAt && row.previousSecretExpiresAt > at ? row.previousSecretExpiresAt.toISOString() : null;
  return {
    ...toEndpointView(row),
    workspace: { id: actor.workspace.id, name: actor.workspace.name },
    health: health ? toHealthView(health) : null,
    previousSecretSignsUntil,
  };
}
