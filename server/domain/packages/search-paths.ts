/**
 * Which way a search among all of a workspace's packages reads its page — remembered, so the page's statement
 * can be prepared once with a generic plan instead of planned for its values on every request.
 *
 * A search has two good plans, and which one depends on how many packages match, not on anything a generic
 * plan knows:
 * - `walk`: the workspace's `updatedAt` index (or its status's), newest first, keeping the titles that match,
 *   until the page is full. To fill a window of `offset + limit` it reads about `window × total ÷ matches`
 *   rows: few when most titles match ("rental", one in ten).
 * - `trigram`: every match through the title's trigram index, then sorted: `matches` rows, few when few titles
 *   match ("harbour", 20 in a million) — where the walk would read the whole workspace.
 * So: the walk when `window × total ÷ matches < matches`, else the trigram index.
 *
 * What is remembered is a hint, not an answer: how many packages the search matched when its exact total was
 * last known (every page's `totalCount` is exact) and how many the workspace (or status) held then. Nothing
 * shown to a caller comes from it; a stale hint only costs a slower plan until the next total corrects it. Until
 * a search has a hint (its first request in this process), its page is planned for its values, as before.
 *
 * Per process and per database handle, bounded (least recently used first out), like the remembered counts
 * (search-count-cache.ts). Measured: bench/README.md, `bench:packages`, issue 19 ("Searches planned once").
 */
import type { Db } from "@/server/db/client";
import { createRecentMap, type TRecentMap } from "@/server/lib/bounded-cache";

export type TSearchPath = "walk" | "trigram";

type THint = { matches: number; total: number };

const SEARCH_PATH_HINTS = 1000;

const hintsByDb = new WeakMap<Db, TRecentMap<string, THint>>();

function hintsOf(db: Db): TRecentMap<string, THint> {
  let hints = hintsByDb.get(db);
  if (!hints) hintsByDb.set(db, (hints = createRecentMap(SEARCH_PATH_HINTS)));
  return hints;
}

/** The better path for a window of `window` rows (offset + limit), given a search's matches among `total`. */
export function searchPathFor(hint: THint, window: number): TSearchPath {
  return hint.matches * hint.matches > window * hint.total ? "walk" : "trigram";
}

/** The remembered path for the search under `key` (which names the workspace), if it has a hint. */
export function rememberedSearchPath(db: Db, key: string, window: number): TSearchPath | undefined {
  const hint = hintsOf(db).get(key);
  return hint ? searchPathFor(hint, window) : undefined;
}

/**
 * Notes a search's exact number of matches. `totalNow` (the workspace's or the status's package count, from the
 * counters) is asked only when the number differs from the hint's: once per search and process while nothing
 * changes.
 */
export async function noteSearchMatches(db: Db, key: string, matches: number, totalNow: () => Promise<number>): Promise<void> {
  const hints = hintsOf(db);
  const hint = hints.get(key);
  if (hint?.matches === matches) return;
  const total = await totalNow();
  hints.put(key, { matches, total: Math.max(total, matches) });
}
