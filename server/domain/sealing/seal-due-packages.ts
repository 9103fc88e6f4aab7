import type { Db } from "@/server/db/client";
import { now } from "@/server/lib/clock";
import { runDueItem } from "@/server/lib/jobs";
import { claimSealJob } from "./jobs";
import { sealClaimedPackage, type TSealOptions, type TSealOutcome } from "./seal-claimed-package";

export type TSealRun = { packageId: string; outcome: TSealOutcome };

/** One seal at a time per process: sealing holds whole documents in memory, so two at once would double it. */
let queue: Promise<unknown> = Promise.resolve();

/**
 * Claims and seals due packages one after the other, at most `max` (default 10) per call: the worker calls it
 * on every tick; tests call it to run the job. Returns what happened to each package claimed.
 */
export function sealDuePackages(db: Db, opts: { max?: number; signal?: AbortSignal; seal?: TSealOptions } = {}): Promise<TSealRun[]> {
  const run = queue.then(async () => {
    const runs: TSealRun[] = [];
    for (let i = 0; i < (opts.max ?? 10); i++) {
      if (opts.signal?.aborted) break;
      const claimed = await runDueItem(db, claimSealJob, { at: now(), skip: [] });
      if (!claimed) break;
      if ("error" in claimed) throw claimed.error;
      // A claim that found the attempts used up ended sealing itself (FAILED): nothing to seal.
      const outcome = claimed.item.lost ? "failed" : await sealClaimedPackage(db, claimed.item, opts.seal);
      runs.push({ packageId: claimed.item.id, outcome });
    }
    return runs;
  });
  queue = run.catch(() => undefined);
  return run;
}
