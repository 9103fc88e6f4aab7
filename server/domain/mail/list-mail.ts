import { count, desc, eq, and } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { mailMessages } from "@/server/db/schema";
import type { TActor } from "@/server/domain/access/actor";
import { pageWindow } from "@/server/lib/pagination";
import { mailSummaryView } from "./mail-view";
import { mailVisibility } from "./mail-visibility";
import type { TMailListQuery } from "./schemas";
import { configuredMailTransport } from "./transport";

/** The Mail page: the current workspace's messages the actor may see, newest first. */
export async function listMail(db: Db, actor: TActor, query: TMailListQuery) {
  const where = and(mailVisibility(db, actor), query.status ? eq(mailMessages.status, query.status) : undefined);
  const { limit, offset } = pageWindow(query);
  const [rows, [total]] = await Promise.all([
    db.select().from(mailMessages).where(where).orderBy(desc(mailMessages.createdAt), desc(mailMessages.id)).limit(limit).offset(offset),
    db.select({ n: count() }).from(mailMessages).where(where),
  ]);
  return {
    messages: rows.map(mailSummaryView),
    totalCount: total?.n ?? 0,
    page: query.page,
    pageSize: query.pageSize,
    transport: configuredMailTransport().kind,
  };
}
