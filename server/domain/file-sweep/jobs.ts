/**
 * The stored-file sweep, a declared job (server/lib/jobs.ts): it reclaims what crashes leave in the file
 * store, on either backend, and never anything in use.
 *
 * - **Unfinished uploads.** A process killed mid-upload leaves chunks no file names (database backend), or a
 *   staging object and an incomplete multipart upload (S3): `reclaimUnfinished` removes those started before
 *   the cut-off.
 * - **Files nothing names.** A process killed between storing a file and the commit that names it — an upload
 *   before its row is updated, a seal before its fenced commit (`sealed/<package>/<claim token>/…`), a
 *   conversion, a signature image — leaves a finished file that no row refers to. The sweep lists each of
 *   `SWEPT_PREFIXES` page by page (`list`), and deletes the files of a page that are older than the cut-off,
 *   not named by any column that holds a storage key, and not written by a seal whose claim is still live
 *   (`keysInUse`, checked in the same transaction, just before the delete).
 *
 * The cut-off is `STORAGE_SWEEP_GRACE_HOURS` (default 24) before `now()`: anything younger may belong to an
 * upload or a seal still in flight, so it is left alone whatever names it. Files are deleted one by one through
 * the store, which is idempotent, so two workers sweeping at once (each keeps its own place in the listing)
 * cost a duplicated listing, never a wrong delete.
 *
 * Items: a pass is "unfinished" then one item per listed page (`documents/`, then `documents/>last key`, …);
 * where the pass has got to is kept in this worker's memory, and a pass that ends (nothing more listed) waits
 * `everyMs` before the next one starts from the top. The store is used `within` the item's transaction (on
 * PGlite a query outside it would wait for it).
 */
import type { Db } from "@/server/db/client";
import { env } from "@/server/env";
import { defineJob, runDueItem, type TDeclaredJob, type TDueItem } from "@/server/lib/jobs";
import { logger } from "@/server/lib/logger";
import { now } from "@/server/lib/clock";
import type { TFileStore } from "@/server/storage/file-store";
import { getFileStore } from "@/server/storage/get-file-store";
import { keysInUse, SWEPT_PREFIXES } from "./keys-in-use";

const HOUR = 60 * 60_000;
/** Files looked at per item: one listing call, one indexed lookup per key column. */
const PAGE = 200;

export type TSweepItem = TDueItem & ({ kind: "unfinished"; before: Date } | { kind: "files"; before: Date; keys: string[] });

export type TFileSweepOptions = {
  /** The store to sweep (default: the configured one). */
  store?: () => Promise<TFileStore>;
  /** Overrides STORAGE_SWEEP_GRACE_HOURS (tests). */
  graceMs?: number;
};

export function fileSweepJobs(options: TFileSweepOptions = {}) {
  const store = options.store ?? getFileStore;
  const graceMs = () => options.graceMs ?? env().STORAGE_SWEEP_GRACE_HOURS * HOUR;
  // Where this worker's pass has got to: step 0 is the unfinished uploads, step i the i-th prefix.
  let cursor: { step: number; after: string | null } = { step: 0, after: null };

  return {
    sweepStoredFiles: defineJob<TSweepItem>({
      name: "sweep-stored-files",
      everyMs: HOUR,
      budget: 50,
      async due(tx, { at, skip }) {
        const before = new Date(at.getTime() - graceMs());
        const scoped = (await store()).within(tx);
        while (cursor.step <= SWEPT_PREFIXES.length) {
          if (cursor.step === 0) {
            cursor = { step: 1, after: null };
            if (!skip.includes("unfinished")) return { id: "unfinished", kind: "unfinished", before };
            continue;
          }
          const prefix = SWEPT_PREFIXES[cursor.step - 1]!;
          const id = cursor.after === null ? prefix : `${prefix}>${cursor.after}`;
          const page = await scoped.list(prefix, before, { after: cursor.after, limit: PAGE });
          cursor = page.next === null ? { step: cursor.step + 1, after: null } : { step: cursor.step, after: page.next };
          if (skip.includes(id)) continue;
          return { id, kind: "files", before, keys: page.files.map((f) => f.key) };
        }
        cursor = { step: 0, after: null };
        return undefined;
      },
      async handle(tx, item) {
        const scoped = (await store()).within(tx);
        if (item.kind === "unfinished") {
          const removed = await scoped.reclaimUnfinished(item.before);
          if (removed > 0) logger().info({ removed, before: item.before.toISOString() }, "file sweep: removed what unfinished uploads left");
          return;
        }
        const used = await keysInUse(tx, item.keys);
        const unused = item.keys.filter((key) => !used.has(key));
        for (const key of unused) await scoped.delete(key);
        if (unused.length > 0) logger().info({ keys: unused, before: item.before.toISOString() }, "file sweep: removed stored files nothing names");
      },
    }),
  };
}

/**
 * Runs one whole pass of the sweep now, at `now()` (tests move the clock past the grace period instead of
 * waiting). Returns the items handled; throws the first item's error.
 */
export async function runFileSweep(db: Db, job: TDeclaredJob<TSweepItem> = fileSweepJobs().sweepStoredFiles): Promise<TSweepItem[]> {
  const handled: TSweepItem[] = [];
  for (;;) {
    const run = await runDueItem(db, job, { at: now(), skip: handled.map((item) => item.id) });
    if (!run) return handled;
    if ("error" in run) throw run.error;
    handled.push(run.item);
  }
}
