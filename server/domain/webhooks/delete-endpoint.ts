import { and, eq } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { webhookEndpoints } from "@/server/db/schema";
import { errors } from "@/server/http/errors";
import type { TWebhookCtx } from "./endpoint-view";

/** Deletes the endpoint and, by cascade, its deliveries; an attempt in flight finds its claim gone and records nothing. */
export async function deleteEndpoint(db: Db, ctx: TWebhookCtx, endpointId: string) {
  const rows = await db
    .delete(webhookEndpoints)
    .where(and(eq(webhookEndpoints.id, endpointId), eq(webhookEndpoints.workspaceId, ctx.workspace.id)))
    .returning({ id: webhookEndpoints.id });
  if (rows.length === 0) throw errors.notFound("Webhook endpoint");
  return { id: endpointId, deleted: true as const };
}
