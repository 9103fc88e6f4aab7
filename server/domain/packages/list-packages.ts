import { and, count, desc, eq, getTableColumns, ilike, isNotNull, sql, type SQL } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { packages, recipientSessions } from "@/server/db/schema";
import { pageWindow } from "@/server/lib/pagination";
import type { TPackageActor } from "./package-actor";
import { toPackageSummary } from "./package-view";
import type { TListPackagesQuery } from "./schemas";
import { countPackages } from "./count-packages";
import { seesAllPackages, visiblePackages } from "./visible-packages";

/** `%`, `_` and `\` in a search are literal characters, not patterns. */
function likeEscape(value: string): string {
  return value.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/**
 * The packages the actor can see, newest `updatedAt` first, paged. VIEWED is not a state: it lists IN_PROGRESS
 * packages a recipient has opened (`firstViewedAt` set).
 */
export async function listPackages(db: Db, actor: TPackageActor, query: TListPackagesQuery) {
  const { limit, offset } = pageWindow(query);
  const where: SQL[] = [visiblePackages(actor)];
  if (query.status === "VIEWED") where.push(eq(packages.status, "IN_PROGRESS"), isNotNull(packages.firstViewedAt));
  else if (query.status) where.push(eq(packages.status, query.status));
  if (query.search) where.push(ilike(packages.title, `%${likeEscape(query.search)}%`));
  const condition = and(...where);
  // The page and its recipients ("1 of 2 signed") in one statement: two index lookups per listed package.
  // Qualified by hand: drizzle writes a one-table select's columns unqualified, and a bare "id" inside the
  // subquery would be the session's own id.
  const sessions = (completedOnly: boolean) =>
    sql<number>`(select count(*) from ${recipientSessions} rs where rs.package_id = ${packages}.id${completedOnly ? sql` and rs.status = 'COMPLETED'` : sql``})`.mapWith(Number);
  const [rows, total] = await Promise.all([
    db
      .select({ ...getTableColumns(packages), recipientTotal: sessions(false), recipientCompleted: sessions(true) })
      .from(packages)
      .where(condition)
      .orderBy(desc(packages.updatedAt), desc(packages.id))
      .limit(limit)
      .offset(offset),
    totalCount(db, actor, query, condition),
  ]);
  const packagesOut = rows.map((r) => ({ ...toPackageSummary(r), recipientCounts: { total: r.recipientTotal, completed: r.recipientCompleted } }));
  return { packages: packagesOut, totalCount: total, page: query.page, pageSize: query.pageSize };
}

/**
 * The exact total. Everything a workspace holds (or one status of it) comes from the counters, whatever the
 * workspace's size; a visibility-restricted actor or a `search` counts its matches through the indexes
 * (owner, key, trigram), so its cost grows with the matches, not with the workspace.
 */
async function totalCount(db: Db, actor: TPackageActor, query: TListPackagesQuery, condition: SQL | undefined): Promise<number> {
  if (!query.search && seesAllPackages(actor)) return countPackages(db, actor.workspace.id, query.status);
  const [row] = await db.select({ n: count() }).from(packages).where(condition);
  return row?.n ?? 0;
}
