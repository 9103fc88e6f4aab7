import { and, desc, eq, ilike, isNotNull, sql, type SQL } from "drizzle-orm";
import type { PgColumn } from "drizzle-orm/pg-core";
import type { Db } from "@/server/db/client";
import { hotColumns, hotQuery, type THotRow } from "@/server/db/driver";
import { packages, recipientSessions } from "@/server/db/schema";
import { pageWindow } from "@/server/lib/pagination";
import type { TPackageActor } from "./package-actor";
import { packageListPageJson, summaryJsonSql } from "./package-list-json";
import { packageSummaryHotColumns } from "./package-view";
import type { TListPackagesQuery } from "./schemas";
import { bucketOf, countersTotal, countPackages, type TBucket } from "./count-packages";
import { cachedSearchCount, countCheckColumns, currentSnapshot, rememberedCount, type TCountCheck, type TCountWithSnapshot } from "./search-count-cache";
import { noteSearchMatches, rememberedSearchPath, type TSearchPath } from "./search-paths";
import { visibilityCondition, visibilityOf, type TVisibility } from "./visible-packages";

/** `%`, `_` and `\` in a search are literal characters, not patterns. */
function likeEscape(value: string): string {
  return value.replace(/[\\%_]/g, (c) => `\\${c}`);
}

const ph = sql.placeholder;

/**
 * What changes the list's SQL text (never a value): the actor's visibility, the kind of status filter, a search,
 * and whether the page also asks if a remembered count of that search is still exact (`check`, see countAll).
 */
type TShape = { restricted: boolean; viaKey: boolean; status: TBucket; search: boolean; path?: TSearchPath; check: boolean; json: boolean };

function shapeOf(visibility: TVisibility, query: TListPackagesQuery): TShape {
  return {
    restricted: visibility.restricted,
    viaKey: visibility.restricted && visibility.apiKeyId !== undefined,
    status: bucketOf(query.status),
    search: Boolean(query.search),
    check: false,
    json: false,
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

const shapeKey = (s: TShape) =>
  `${s.restricted ? (s.viaKey ? "key" : "member") : "all"}_${s.status}${s.search ? "_search" : ""}${s.path ? `_${s.path}` : ""}${s.check ? "_check" : ""}${s.json ? "_json" : ""}`;

/**
 * One page with its recipients ("1 of 2 signed"): two index lookups per listed package. Every output column
 * is named and every timestamp is formatted by the database (server/db/driver/rows.ts), so the rows need no
 * mapping.
 *
 * With a generic plan (see planOf) the page's ids come first — from the index alone (`id` and `updatedAt` are
 * in the list's indexes), so a deep page skips index entries, not rows with their subqueries; or, for a search
 * on the trigram path, every match's id sorted — then each listed row by its key. A workspace's newest page also
 * carries the exact total from the counters (a scalar subquery run once: one round trip, one snapshot). A
 * search without a path yet, or a restricted actor, is planned for its values on every call, where that nesting
 * and a count in the same statement cost more planning than they save: there the page is read directly. A
 * search is counted only when it must be (totalOfPage).
 */
function pageQuery(db: Db, shape: TShape) {
  return hotQuery<Record<string, unknown>, TPageRow>(
    db,
    `list_packages_page_${shapeKey(shape)}`,
    () => {
      const sessions = (completedOnly: boolean) =>
        sql<number>`(select count(*)::int from ${recipientSessions} rs where rs.package_id = ${packages.id}${completedOnly ? sql` and rs.status = 'COMPLETED'` : sql``})`;
      // The page's JSON (listPackagesJson): one text column per package, written by PostgreSQL (package-list-json.ts).
      const summary: Record<string, PgColumn | SQL> = shape.json
        ? { json: summaryJsonSql(sessions(false), sessions(true)) }
        : { ...packageSummaryHotColumns, recipientTotal: sessions(false), recipientCompleted: sessions(true) };
      if (planOf(shape) === "custom") {
        const check = countCheckColumns(db, "countSnapshot");
        const columns = hotColumns(
          shape.check ? { ...summary, countUnchanged: check.unchanged, countCounted: check.counted, countSnapshot: check.snapshot } : summary,
        );
        // A one-table select writes its columns unqualified; `packages.id` inside `sessions` is qualified (nested).
        return db
          .select(columns)
          .from(packages)
          .where(conditionOf(shape))
          .orderBy(desc(packages.updatedAt), desc(packages.id))
          .limit(ph("limit"))
          .offset(ph("offset"));
      }
      const window = sql`order by updated_at desc, id desc limit ${ph("limit")} offset ${ph("offset")}`;
      // The trigram path: every package whose title matches, found through the title's trigram index (its
      // `offset 0` plans them on their own, and keeps the other conditions out: no other index can serve them),
      // then the workspace's and the status's conditions on those rows, and one sort of what is left.
      const matches = sql`(select * from ${packages} where ${packages.deletedAt} is null and ${packages.title} ilike ${ph("search")} offset 0) as ${sql.identifier("packages")}`;
      const ids =
        shape.path === "trigram"
          ? sql`select ${packages.id}, ${packages.updatedAt} from ${matches} where ${conditionOf({ ...shape, search: false })}`
          : sql`select ${packages.id}, ${packages.updatedAt} from ${packages} where ${conditionOf(shape)}`;
      const page = sql`(${ids} ${window}) as page`;
      // Each listed row by its primary key. `offset 0` keeps this a per-row lookup: a generic plan cannot know
      // the page holds at most 100 rows and would otherwise join it with a scan of every package.
      const row = sql`(select * from ${packages} where ${packages.id} = page.id offset 0) as ${sql.identifier("packages")}`;
      // A search's total is its matches (totalOfPage), not the counters'; the page may ask about a remembered one.
      const check = countCheckColumns(db, "countSnapshot");
      const extra: Record<string, SQL> = !shape.search
        ? { total: countersTotal(db, shape.status) }
        : shape.check
          ? { countUnchanged: check.unchanged, countCounted: check.counted, countSnapshot: check.snapshot }
          : {};
      return db
        .select(hotColumns({ ...summary, ...extra }))
        .from(page)
        .crossJoinLateral(row)
        .orderBy(sql`page.updated_at desc, page.id desc`);
    },
    { plan: planOf(shape) },
  );
}

/**
 * The exact total for a page just read. The counters ride on the page's own rows (generic shapes). A search
 * or a restricted actor counts its matches, which costs as many of them as there are — so only when the page
 * cannot tell: a page that is not full ends the matches (its own statement, its own snapshot), and only a full
 * page, or one past the end, runs the count (a second statement, as a client reading page after page would).
 */
async function totalOfPage(rows: TPageRow[], at: { limit: number; offset: number }, countAll: () => Promise<number>): Promise<number> {
  if (rows[0]?.total !== undefined) return rows[0].total;
  if (rows.length > 0 && rows.length < at.limit) return at.offset + rows.length;
  if (rows.length === 0 && at.offset === 0) return 0;
  return countAll();
}

/**
 * A workspace's newest page (all, or one status, through its `updatedAt` index) has one best plan for every
 * workspace, page and status; a search or a member's own packages do not — how many rows match decides
 * between walking the index and collecting the matches. A search among all of the workspace's packages whose
 * path is remembered (search-paths.ts) has one statement per path, each with one best plan; a search without
 * one yet, and a member's own packages, are planned for their values each time.
 */
function planOf(shape: TShape): "generic" | "custom" {
  return shape.restricted || (shape.search && !shape.path) ? "custom" : "generic";
}

/**
 * `total` only where the statement carries it (the counters, see pageQuery); the `count…` answers only where it
 * asks whether a remembered count is still exact (`check`).
 */
type TPageRow = Partial<THotRow<typeof packageSummaryHotColumns>> & {
  recipientTotal?: number;
  recipientCompleted?: number;
  /** The package's JSON (a `json` shape only). */
  json?: string;
  total?: number;
  countUnchanged?: boolean;
  countCounted?: boolean;
  countSnapshot?: string;
};

/**
 * The exact number of a search's or a restricted actor's matches, through their indexes (owner, key, share,
 * trigram), with the snapshot it was counted in.
 */
async function countMatches(db: Db, shape: TShape, values: Record<string, unknown>): Promise<TCountWithSnapshot> {
  const query = hotQuery<Record<string, unknown>, TCountWithSnapshot>(db, `list_packages_count_${shapeKey(shape)}`, () =>
    db
      .select({ total: sql<number>`count(*)::int`.as("total"), snapshot: currentSnapshot.as("snapshot") })
      .from(packages)
      .where(conditionOf(shape)),
  );
  const [row] = await query(values);
  return row!; // count(*) without GROUP BY answers one row, always
}

/** Which remembered count a search among all of a workspace's packages reuses (search-count-cache.ts). */
const searchCountKey = (shape: TShape, values: Record<string, unknown>) =>
  JSON.stringify([shapeKey({ ...shape, check: false, json: false }), values.status ?? null, values.search]);

/**
 * The total past a full page: the counters for a workspace's packages or one status; a search among all of
 * them is counted once and remembered while no package of the workspace changes (search-count-cache.ts) — the
 * page's statement asked whether it still is (`checked`, when a count was remembered before the page was read);
 * a restricted actor's matches are counted each time.
 */
async function countAll(
  db: Db,
  actor: TPackageActor,
  query: TListPackagesQuery,
  shape: TShape,
  values: Record<string, unknown>,
  checked: TCountCheck | undefined,
): Promise<number> {
  if (!shape.search && !shape.restricted) return countPackages(db, actor.workspace.id, query.status);
  const counted = { ...shape, path: undefined, check: false, json: false };
  if (shape.restricted) return (await countMatches(db, counted, values)).total;
  return cachedSearchCount(db, actor.workspace.id, searchCountKey(shape, values), () => countMatches(db, counted, values), checked);
}

/** The page's answer to "is the remembered count still exact?", when it asked (a row carries it). */
function checkOf(rows: TPageRow[], against: TCountWithSnapshot | undefined): TCountCheck | undefined {
  const row = rows[0];
  if (against === undefined || row?.countUnchanged === undefined) return undefined;
  return { against, unchanged: row.countUnchanged, counted: row.countCounted!, snapshot: row.countSnapshot! };
}

/**
 * One page of the packages the actor can see, newest `updatedAt` first, with the exact total. VIEWED is not a
 * state: it lists IN_PROGRESS packages a recipient has opened (`firstViewedAt` set). The statements are
 * prepared once per shape (see server/db/driver/prepared.ts): this is the API's busiest read. `json`: each row carries
 * its package's JSON instead of its columns (listPackagesJson).
 */
async function readPage(db: Db, actor: TPackageActor, query: TListPackagesQuery, json: boolean): Promise<{ rows: TPageRow[]; totalCount: number }> {
  const { limit, offset } = pageWindow(query);
  const visibility = visibilityOf(actor);
  const shape = shapeOf(visibility, query);
  const values = {
    workspaceId: visibility.workspaceId,
    ...(visibility.restricted ? { userId: visibility.userId, ...(shape.viaKey ? { apiKeyId: visibility.apiKeyId } : {}) } : {}),
    ...(shape.status === "one" ? { status: query.status } : {}),
    ...(shape.search ? { search: `%${likeEscape(query.search!)}%` } : {}),
  };
  // A search among all of the workspace's packages whose count is remembered: the page asks whether it is still
  // exact in the same statement (one round trip fewer for a full page; bench/README.md, bench:packages, issue 19).
  const searchKey = shape.search && !shape.restricted ? searchCountKey(shape, values) : undefined;
  const remembered = searchKey === undefined ? undefined : rememberedCount(db, actor.workspace.id, searchKey);
  // Which way a search reads its page, when its number of matches is known (search-paths.ts).
  const hintKey = searchKey === undefined ? undefined : `${actor.workspace.id}\u0000${searchKey}`;
  const path = hintKey === undefined ? undefined : rememberedSearchPath(db, hintKey, offset + limit);
  const pageShape = { ...shape, path, check: remembered !== undefined, json };
  const rows = await pageQuery(db, pageShape)({ ...values, limit, offset, ...(remembered === undefined ? {} : { countSnapshot: remembered.snapshot }) });
  const checked = checkOf(rows, remembered);
  const totalCount = await totalOfPage(rows, { limit, offset }, () => countAll(db, actor, query, shape, values, checked));
  if (hintKey !== undefined) await noteSearchMatches(db, hintKey, totalCount, () => countPackages(db, actor.workspace.id, query.status));
  return { rows, totalCount };
}

/** The packages the actor can see, newest `updatedAt` first, paged, as the API's summaries. */
export async function listPackages(db: Db, actor: TPackageActor, query: TListPackagesQuery) {
  const { rows, totalCount } = await readPage(db, actor, query, false);
  const packagesOut = rows.map((r) => ({
    id: r.id!,
    title: r.title!,
    status: r.status!,
    externalId: r.externalId ?? null,
    metadata: r.metadata!,
    templateId: r.templateId ?? null,
    ownerUserId: r.ownerUserId!,
    sequential: r.sequential!,
    sendAt: r.sendAt ?? null,
    scheduleError: r.scheduleError ?? null,
    expiresAt: r.expiresAt ?? null,
    expiredAt: r.expiredAt ?? null,
    sentAt: r.sentAt ?? null,
    firstViewedAt: r.firstViewedAt ?? null,
    completedAt: r.completedAt ?? null,
    declinedAt: r.declinedAt ?? null,
    voidedAt: r.voidedAt ?? null,
    createdAt: r.createdAt!,
    updatedAt: r.updatedAt!,
    recipientCounts: { total: r.recipientTotal!, completed: r.recipientCompleted! },
  }));
  return { packages: packagesOut, totalCount, page: query.page, pageSize: query.pageSize };
}

/**
 * The same page as the API's JSON text, exactly `JSON.stringify(ZPackageList.parse(await listPackages(…)))`
 * (package-list-json.test.ts): each package's JSON written by PostgreSQL, so the server neither parses the rows'
 * columns nor writes them again (bench/README.md, `bench:packages`, issue 19).
 */
export async function listPackagesJson(db: Db, actor: TPackageActor, query: TListPackagesQuery): Promise<string> {
  const { rows, totalCount } = await readPage(db, actor, query, true);
  return packageListPageJson(
    rows.map((r) => r.json!),
    totalCount,
    query.page,
    query.pageSize,
  );
}
