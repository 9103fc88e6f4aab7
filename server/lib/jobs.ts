/**
 * A declared job: what makes work due, and what to do with one due item. "The state is the schedule": a job
 * has no queue table of its own — its `due` query selects rows whose state says they need work (a SCHEDULED
 * package whose `send_at` has passed IS the due item; moving `send_at` reschedules it). The worker
 * (server/jobs/run-declared-job.ts) claims one item at a time, each in its own transaction — claim, handle and
 * commit together — so any number of workers can run the same job and each item is handled once.
 * Capabilities declare their jobs next to their domain code (e.g. server/domain/<capability>/jobs.ts) and list
 * them in server/jobs/all-jobs.ts. See server/jobs/README.md.
 */
import type { Db } from "@/server/db/client";

/** One unit of work. `id` names it for the runner (backoff after a failure, logs); a batch names its first row. */
export type TDueItem = { id: string };

export type TDueContext = {
  /** The runner's clock (`now()` from server/lib/clock.ts, injectable in tests), read once per claim. */
  at: Date;
  /**
   * Items the query must NOT return: handled already in this tick, or failing and backing off. Exclude them
   * in the where clause (`notInArray(t.id, [...skip])`); a job that returns one of them is a bug and fails loudly.
   */
  skip: readonly string[];
};

export type TDeclaredJob<TItem extends TDueItem = TDueItem> = {
  /** kebab-case, unique among the jobs: logs and backoff are keyed by it. */
  name: string;
  /**
   * Selects and locks at most ONE due item in the runner's transaction, with `FOR UPDATE SKIP LOCKED` (or
   * `FOR NO KEY UPDATE … SKIP LOCKED`), so that concurrent workers each take a different item; `undefined`
   * when nothing is due. Order it (oldest first) so a backlog drains fairly.
   */
  due(tx: Db, ctx: TDueContext): Promise<TItem | undefined>;
  /**
   * Does the work for one claimed item in the same transaction, and must leave it no longer due (or due later).
   * Throwing rolls the whole transaction back: the item stays due and the runner backs off from it.
   */
  handle(tx: Db, item: TItem, ctx: { at: Date }): Promise<void>;
  /** How often a worker looks for due items; unset → on every worker tick. Cheap, rare work sets it. */
  everyMs?: number;
  /** Items one worker handles per tick at most (default 100): one job never starves the others. */
  budget?: number;
  /** First wait before this worker tries a failing item again (default 60 s, doubling up to an hour). */
  retryAfterMs?: number;
};

/** Declares a job; checks the declaration once, at start-up, rather than on the first due item. */
export function defineJob<TItem extends TDueItem>(job: TDeclaredJob<TItem>): TDeclaredJob<TItem> {
  if (!/^[a-z0-9]+(-[a-z0-9]+)*$/.test(job.name)) throw new Error(`defineJob: name "${job.name}" must be kebab-case`);
  for (const key of ["everyMs", "budget", "retryAfterMs"] as const) {
    const value = job[key];
    if (value !== undefined && !(Number.isInteger(value) && value > 0)) throw new Error(`defineJob ${job.name}: ${key} must be a positive integer`);
  }
  return job;
}

/** The outcome of one claim: nothing due, the item handled and committed, or the item's error (rolled back). */
export type TDueRun<TItem extends TDueItem = TDueItem> = { item: TItem; error?: unknown } | undefined;

/**
 * Claims one due item and handles it in ONE transaction. A failing handler (or commit) rolls everything
 * back and is returned with its item; a failing `due` query, or one that returns an item it was told to
 * skip, throws (the job itself is broken, not one item).
 */
export async function runDueItem<TItem extends TDueItem>(db: Db, job: TDeclaredJob<TItem>, ctx: TDueContext): Promise<TDueRun<TItem>> {
  let claimed: TItem | undefined;
  try {
    return await db.transaction(async (tx) => {
      const item = await job.due(tx, ctx);
      if (!item) return undefined;
      if (ctx.skip.includes(item.id)) {
        throw new Error(`job ${job.name}: its due query returned "${item.id}", which it was asked to skip; exclude ctx.skip in its where clause`);
      }
      claimed = item;
      await job.handle(tx, item, { at: ctx.at });
      return { item };
    });
  } catch (error) {
    if (claimed === undefined) throw error;
    return { item: claimed, error };
  }
}
