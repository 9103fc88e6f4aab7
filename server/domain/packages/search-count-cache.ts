/**
 * Exact counts of a search, remembered while they stay exact.
 *
 * A search's `totalCount` (a title containing "rental": 100 k of a million packages) costs a visit to every
 * match, whatever index finds them — 150 ms at that size, on every page a client reads. Nothing in the count
 * changes unless a package of the workspace is created, deleted, renamed or moves between statuses (or
 * `viewed`), and every such change appends a row to `package_count_deltas` in its own transaction, carrying
 * that transaction's id; each fold of those rows into `package_counts` marks the counter rows with its own id
 * (schema: packageCounts; migration 0014_package_count_xids).
 *
 * So a count is taken together with its snapshot S (`pg_current_snapshot()`, in the same statement), and a later
 * request for the same count asks the database one cheap question: is every delta and counter row of the
 * workspace visible in S? A change that committed after S — even one that was already running when S was
 * taken, and even one a fold has folded since — is either a delta not visible in S or a counter row written
 * by a fold not visible in S. If none, the count is still exact, and S moves forward to the question's own
 * snapshot; if any, the count is taken again. (So is a count above 0 of a workspace left with no counter row
 * at all: TRUNCATE empties the counters without appending a delta.)
 *
 * Only for actors who see every package of the workspace: what a restricted member sees also depends on owners
 * and shares, which the deltas do not record. Not inside a transaction: one that changed packages itself
 * would see its own deltas as visible in its own snapshot.
 *
 * The memory is per process and per database handle, bounded (least recently used first out); several
 * processes each keep their own, and every one asks the database before trusting what it remembers.
 */
import { and, eq, is, sql } from "drizzle-orm";
import { PgTransaction, type PgColumn } from "drizzle-orm/pg-core";
import type { Db } from "@/server/db/client";
import { hotQuery } from "@/server/db/driver";
import { packageCountDeltas, packageCounts } from "@/server/db/schema";
import { createRecentMap, type TRecentMap } from "@/server/lib/bounded-cache";

const SEARCH_COUNT_CACHE_SIZE = 1000;

type TCache = { entries: TRecentMap<string, TCountWithSnapshot>; hits: number; misses: number };

const caches = new WeakMap<Db, TCache>();

function cacheOf(db: Db): TCache {
  let cache = caches.get(db);
  if (!cache) caches.set(db, (cache = { entries: createRecentMap(SEARCH_COUNT_CACHE_SIZE), hits: 0, misses: 0 }));
  return cache;
}

/** A count and the snapshot it was taken in (`pg_current_snapshot()::text` of the same statement). */
export type TCountWithSnapshot = { total: number; snapshot: string };

/** `pg_current_snapshot()` as text, for the select list of the statement that counts. */
export const currentSnapshot = sql<string>`pg_current_snapshot()::text`;

/** The answer to "is the remembered count still exact?", asked about a count remembered with its snapshot. */
export type TCountCheck = { against: TCountWithSnapshot; unchanged: boolean; counted: boolean; snapshot: string };

/**
 * The count under `key` as remembered now, with its snapshot, if one is remembered (and the question can be
 * asked: not in a transaction). The page's own statement then asks the question about it (`countCheckColumns`),
 * so a reused count costs no statement of its own.
 */
export function rememberedCount(db: Db, workspaceId: string, key: string): TCountWithSnapshot | undefined {
  if (is(db, PgTransaction)) return undefined;
  return cacheOf(db).entries.get(`${workspaceId}\u0000${key}`);
}

/**
 * The exact count under `key` (which must name the workspace, the filter and the search) for a workspace:
 * the remembered one when no package of the workspace changed since it was taken, else `countNow()`. `checked`:
 * the question already answered by another statement (the page's) about the count remembered when that statement
 * was sent — used even if another request has since remembered the count with a later snapshot (under load most
 * have: it once cost a statement of its own on nearly every request); otherwise it is asked here.
 */
export async function cachedSearchCount(
  db: Db,
  workspaceId: string,
  key: string,
  countNow: () => Promise<TCountWithSnapshot>,
  checked?: TCountCheck,
): Promise<number> {
  if (is(db, PgTransaction)) return (await countNow()).total;
  const cache = cacheOf(db);
  const fullKey = `${workspaceId}\u0000${key}`;
  // A count exact in snapshot S is exact in any later snapshot in which nothing of the workspace changed since S.
  const entry = checked?.against ?? cache.entries.get(fullKey);
  if (entry) {
    // The entry stays in place meanwhile: concurrent requests for the same count check it too.
    const check = checked ?? (await unchangedSince(db)({ workspaceId, snapshot: entry.snapshot }))[0];
    // No counter row at all: the workspace has no packages (TRUNCATE empties the counters without a delta).
    if (check?.unchanged && (check.counted || entry.total === 0)) {
      cache.hits++;
      cache.entries.put(fullKey, { total: entry.total, snapshot: check.snapshot });
      return entry.total;
    }
  }
  cache.misses++;
  const counted = await countNow();
  cache.entries.put(fullKey, counted);
  return counted.total;
}

/** How often a remembered count was used or taken again, per database handle (for tests and diagnostics). */
export function searchCountCacheStats(db: Db): { hits: number; misses: number; size: number } {
  const cache = cacheOf(db);
  return { hits: cache.hits, misses: cache.misses, size: cache.entries.size };
}

/**
 * The question's three answers as select-list expressions (uncorrelated: run once per statement), with the
 * placeholders `workspaceId` and `snapshotName`: whether every delta and counter row of the workspace is visible
 * in that snapshot, whether it has any, and the snapshot of the statement asking. A workspace's few counter rows
 * and unfolded deltas, through their indexes: plan-stable.
 */
export function countCheckColumns(db: Db, snapshotName: string) {
  const since = sql`${sql.placeholder(snapshotName)}::pg_snapshot`;
  // The workspace's rows of one table, or only those written by a transaction not visible in the snapshot.
  const rowsOf = (t: typeof packageCounts | typeof packageCountDeltas, xid?: PgColumn) =>
    db
      .select({ one: sql`1` })
      .from(t)
      .where(and(eq(t.workspaceId, sql.placeholder("workspaceId")), xid ? sql`not pg_visible_in_snapshot(${xid}, ${since})` : undefined));
  return {
    unchanged: sql<boolean>`(not exists (${rowsOf(packageCountDeltas, packageCountDeltas.xid)}) and not exists (${rowsOf(packageCounts, packageCounts.foldedXid)}))`,
    counted: sql<boolean>`(exists (${rowsOf(packageCounts)}) or exists (${rowsOf(packageCountDeltas)}))`,
    snapshot: currentSnapshot,
  };
}

/** The question in a statement of its own. */
function unchangedSince(db: Db) {
  return hotQuery<{ workspaceId: string; snapshot: string }, { unchanged: boolean; counted: boolean; snapshot: string }>(
    db,
    "search_count_unchanged_since",
    () => {
      const c = countCheckColumns(db, "snapshot");
      return sql`select ${c.unchanged} as "unchanged", ${c.counted} as "counted", ${c.snapshot} as "snapshot"`;
    },
    { plan: "generic" },
  );
}
