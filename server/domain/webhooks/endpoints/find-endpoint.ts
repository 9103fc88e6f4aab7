import { and, eq } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { webhookEndpoints } from "@/server/db/schema";
import { errors } from "@/server/lib/errors";
import type { TActor } from "@/server/domain/access/actor";

/** The endpoint in the caller's workspace, or 404 — another workspace's endpoint does not exist for the caller. */
export async function findEndpoint(db: Db, actor: TActor, endpointId: string, opts: { forUpdate?: boolean } = {}) {
  // No id holds a NUL, and PostgreSQL refuses one in a query: a page URL with %00 is simply not found.
  if (endpointId.includes("\u0000")) throw errors.notFound("Webhook endpoint");
  const query = db
    .select()
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.id, endpointId), eq(webhookEndpoints.workspaceId, actor.workspace.id)));
  const [row] = opts.forUpdate ? await query.for("update") : await query;
  if (!row) throw errors.notFound("Webhook endpoint");
  return row;
}
