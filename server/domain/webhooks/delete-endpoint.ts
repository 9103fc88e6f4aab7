import { and, eq, sql } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { webhookEndpoints } from "@/server/db/schema";
import { errors } from "@/server/http/errors";
import { foldAttemptsIntoHistogram } from "./attempt-histogram";
import { auditEndpointChange } from "./audit-endpoint-change";
import { findEndpoint } from "./find-endpoint";
import type { TWebhookCtx } from "./endpoint-view";

/** Deletes the endpoint and, by cascade, its deliveries; an attempt in flight finds its claim gone and records nothing. */
export async function deleteEndpoint(db: Db, ctx: TWebhookCtx, endpointId: string) {
  return db.transaction(async (tx) => {
    await findEndpoint(tx, ctx, endpointId, { forUpdate: true });
    // Its deliveries and attempts go by cascade: keep their durations in the cumulative metrics histogram.
    await foldAttemptsIntoHistogram(tx, sql`select id from webhook_deliveries where endpoint_id = ${endpointId}`);
    const [row] = await tx
      .delete(webhookEndpoints)
      .where(and(eq(webhookEndpoints.id, endpointId), eq(webhookEndpoints.workspaceId, ctx.workspace.id)))
      .returning({ id: webhookEndpoints.id, url: webhookEndpoints.url });
    if (!row) throw errors.notFound("Webhook endpoint");
    await auditEndpointChange(tx, ctx, endpointId, "webhook.endpoint_deleted", { url: row.url });
    return { id: endpointId, deleted: true as const };
  });
}
