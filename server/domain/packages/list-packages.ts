import { and, count, desc, eq, ilike, isNotNull, sql, type SQL } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { preparedFor } from "@/server/db/prepared";
import { packages, recipientSessions } from "@/server/db/schema";
import { pageWindow } from "@/server/lib/pagination";
import type { TPackageActor } from "./package-actor";
import { packageSummaryColumns, toPackageSummary } from "./package-view";
import type { TListPackagesQuery } from "./schemas";
import { countPackages } from "./count-packages";
import { visibilityCondition, visibilityOf, type TVisibility } from "./visible-packages";

/** `%`, `_` and `\` in a search are literal characters, not patterns. */
function likeEscape(value: string): string {
  return value.replace(/[\\%_]/g, (c) => `\\${c}`);
}

const ph = sql.placeholder;

/** What changes the list's SQL text (never a value): the actor's visibility, the kind of status filter, a search. */
type TShape = { restricted: boolean; viaKey: boolean; status: "any" | "viewed" | "one"; search: boolean };

function shapeOf(visibility: TVisibility, query: TListPackagesQuery): TShape {
  return {
    restricted: visibility.restricted,
    viaKey: visibility.restricted && visibility.apiKeyId !== undefined,
    status: query.status === "VIEWED" ? "viewed" : query.status ? "one" : "any",
    search: Boolean(query.search),
  };
}

/** The list's condition with placeholders for every value: `workspaceId`, `userId`, `apiKeyId`, `status`, `search`. */
function conditionOf(shape: TShape): SQL {
  const where: SQL[] = [
    visibilityCondition(
      shape.restricted
        ? { workspaceId: ph("workspaceId"), restricted: true, userId: ph("userId"), apiKeyId: shape.viaKey ? ph("apiKeyId") : undefined }
        : { workspaceId: ph("workspaceId"), restricted: false },
    ),
  ];
  if (shape.status === "viewed") where.push(eq(packages.status, "IN_PROGRESS"), isNotNull(packages.firstViewedAt));
  else if (shape.status === "one") where.push(eq(packages.status, ph("status")));
  if (shape.search) where.push(ilike(packages.title, ph("search")));
  return and(...where)!;
}

const shapeKey = (s: TShape) => `${s.restricted ? (s.viaKey ? "key" : "member") : "all"}_${s.status}${s.search ? "_search" : ""}`;

/**
 * One page and its recipients ("1 of 2 signed") in one statement: two index lookups per listed package.
 * Qualified by hand: drizzle writes a one-table select's columns unqualified, and a bare "id" inside the
 * subquery would be the session's own id. Only the summary's columns are read, not the whole row.
 */
function pageQuery(db: Db, shape: TShape) {
  return preparedFor(db, `list_packages_page_${shapeKey(shape)}`, (name) => {
    const sessions = (completedOnly: boolean) =>
      sql<number>`(select count(*) from ${recipientSessions} rs where rs.package_id = ${packages}.id${completedOnly ? sql` and rs.status = 'COMPLETED'` : sql``})`.mapWith(Number);
    return db
      .select({ ...packageSummaryColumns, recipientTotal: sessions(false), recipientCompleted: sessions(true) })
      .from(packages)
      .where(conditionOf(shape))
      .orderBy(desc(packages.updatedAt), desc(packages.id))
      .limit(ph("limit"))
      .offset(ph("offset"))
      .prepare(name);
  });
}

function countQuery(db: Db, shape: TShape) {
  return preparedFor(db, `list_packages_count_${shapeKey(shape)}`, (name) =>
    db.select({ n: count() }).from(packages).where(conditionOf(shape)).prepare(name),
  );
}

/**
 * The packages the actor can see, newest `updatedAt` first, paged. VIEWED is not a state: it lists IN_PROGRESS
 * packages a recipient has opened (`firstViewedAt` set). The statements are prepared once per shape (see
 * server/db/prepared.ts): this is the API's busiest read.
 */
export async function listPackages(db: Db, actor: TPackageActor, query: TListPackagesQuery) {
  const { limit, offset } = pageWindow(query);
  const visibility = visibilityOf(actor);
  const shape = shapeOf(visibility, query);
  const values = {
    workspaceId: visibility.workspaceId,
    ...(visibility.restricted ? { userId: visibility.userId, ...(shape.viaKey ? { apiKeyId: visibility.apiKeyId } : {}) } : {}),
    ...(shape.status === "one" ? { status: query.status } : {}),
    ...(shape.search ? { search: `%${likeEscape(query.search!)}%` } : {}),
  };
  const [rows, total] = await Promise.all([pageQuery(db, shape).execute({ ...values, limit, offset }), totalCount(db, actor, query, shape, values)]);
  const packagesOut = rows.map((r) => ({ ...toPackageSummary(r), recipientCounts: { total: r.recipientTotal, completed: r.recipientCompleted } }));
  return { packages: packagesOut, totalCount: total, page: query.page, pageSize: query.pageSize };
}

/**
 * The exact total. Everything a workspace holds (or one status of it) comes from the counters, whatever the
 * workspace's size; a visibility-restricted actor or a `search` counts its matches through the indexes
 * (owner, key, trigram), so its cost grows with the matches, not with the workspace.
 */
async function totalCount(db: Db, actor: TPackageActor, query: TListPackagesQuery, shape: TShape, values: Record<string, unknown>): Promise<number> {
  if (!shape.search && !shape.restricted) return countPackages(db, actor.workspace.id, query.status);
  const [row] = await countQuery(db, shape).execute(values);
  return row?.n ?? 0;
}
