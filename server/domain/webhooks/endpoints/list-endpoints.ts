import { count, desc, eq } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { webhookEndpoints } from "@/server/db/schema";
import { pageWindow, type TPageQuery } from "@/server/lib/pagination";
import type { TActor } from "@/server/domain/access/actor";
import { toEndpointView } from "./endpoint-view";

/** The workspace's endpoints, newest first, paged. */
export async function listEndpoints(db: Db, actor: TActor, page: TPageQuery) {
  const { limit, offset } = pageWindow(page);
  const inWorkspace = eq(webhookEndpoints.workspaceId, actor.workspace.id);
  const [rows, [total]] = await Promise.all([
    db.select().from(webhookEndpoints).where(inWorkspace).orderBy(desc(webhookEndpoints.createdAt), desc(webhookEndpoints.id)).limit(limit).offset(offset),
    db.select({ n: count() }).from(webhookEndpoints).where(inWorkspace),
  ]);
  return { webhooks: rows.map(toEndpointView), totalCount: total?.n ?? 0, page: page.page, pageSize: page.pageSize };
}
