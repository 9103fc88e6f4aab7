/**
 * Batches the pre-send check (confirm-claims.ts) of the claims a worker is about to send: the claims of one
 * batch reach it within the same turn of the event loop, so the flush waits for that turn to end
 * (setImmediate — no timer, no added latency) and checks them all in one statement. While a check runs, the
 * next requests queue up for the following one.
 */
import type { Db } from "@/server/db/client";
import { confirmClaims, type TCheckedClaim, type TSendVerdict } from "./confirm-claims";

type TPending = { claim: TCheckedClaim; resolve: (v: TSendVerdict) => void; reject: (e: unknown) => void };

export type TSendGate = { confirm(claim: TCheckedClaim): Promise<TSendVerdict> };

export function createSendGate(db: Db, opts: { maxBatch?: number } = {}): TSendGate {
  const maxBatch = opts.maxBatch ?? 256;
  let queue: TPending[] = [];
  let running = false;

  const flush = async () => {
    running = true;
    try {
      while (queue.length > 0) {
        const batch = queue.slice(0, maxBatch);
        queue = queue.slice(maxBatch);
        try {
          const verdicts = await confirmClaims(
            db,
            batch.map((p) => p.claim),
          );
          batch.forEach((p, i) => p.resolve(verdicts[i]!));
        } catch (err) {
          for (const p of batch) p.reject(err);
        }
      }
    } finally {
      running = false;
    }
  };

  return {
    confirm(claim) {
      return new Promise<TSendVerdict>((resolve, reject) => {
        queue.push({ claim, resolve, reject });
        if (!running && queue.length === 1) setImmediate(() => void (running ? undefined : flush()));
      });
    },
  };
}
