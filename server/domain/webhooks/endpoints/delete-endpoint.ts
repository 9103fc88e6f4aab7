import { and, eq } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { webhookEndpoints } from "@/server/db/schema";
import { errors } from "@/server/lib/errors";
import { auditChange } from "@/server/domain/audit/audit-change";
import { findEndpoint } from "./find-endpoint";
import type { TActor } from "@/server/domain/access/actor";
import type { TEndpointRef } from "@/server/domain/webhooks/schemas";

/** Deletes the endpoint and, by cascade, its deliveries; an attempt in flight finds its claim gone and records nothing. */
export async function deleteEndpoint(db: Db, actor: TActor, input: TEndpointRef) {
  const { endpointId } = input;
  return db.transaction(async (tx) => {
    await findEndpoint(tx, actor, endpointId, { forUpdate: true });
    // Its deliveries go with it and their attempts with them (triggers); the metrics' tallies follow (their own
    // triggers), and the attempts stay counted in the cumulative duration histogram.
    const [row] = await tx
      .delete(webhookEndpoints)
      .where(and(eq(webhookEndpoints.id, endpointId), eq(webhookEndpoints.workspaceId, actor.workspace.id)))
      .returning({ id: webhookEndpoints.id, url: webhookEndpoints.url });
    if (!row) throw errors.notFound("Webhook endpoint");
    await auditChange(tx, actor, endpointId, "webhook.endpoint_deleted", { url: row.url });
    return { id: endpointId, deleted: true as const };
  });
}
