/**
 * Group commit for attempt outcomes. While one flush is running the next outcomes queue up and are then
 * written together in ONE transaction: all successes of the batch in one multi-row statement
 * (record-delivered-outcomes.ts), each failure with recordAttemptOutcome's fenced statement, pipelined on the
 * same connection; a batch of successes only is that one statement, atomic by itself, with no BEGIN/COMMIT
 * around it. A busy worker pays one commit (and one WAL flush) per batch instead of one per delivery.
 * Within a batch, successes are applied before failures: attempts in one batch ran concurrently, so there is
 * no "last" one to honour, and the counter ends counting the batch's failures. An idle worker flushes a lone
 * outcome at once; a busy one (see `outstanding`) lets an outcome wait up to `maxWaitMs` for the rest of its
 * wave. Statements run in endpoint order, so two workers' batches lock endpoint rows in the same order.
 * If a batch fails as a whole (say, a deadlock victim), its outcomes are retried one by one, each on its own.
 * The worker's next claim can travel with a batch (`claimNext`): the outcomes, the claim's lock and the claim in
 * ONE transaction (for successes only, sent in one round trip) — one commit per wave instead of two, and the
 * claim starts as soon as the slots it fills are free instead of after a trip back to the worker (drain +6 %,
 * PostgreSQL CPU per delivery −10 % at 10,000 deliveries, bench/README.md, issue 22).
 */
import type { Db } from "@/server/db/client";
import { queryPrepared, transactionInOneTrip } from "@/server/db/driver";
import { logger } from "@/server/lib/logger";
import { claimsFromRows, claimWithLostLeases, nextClaimStatements, type TClaim, type TClaimOptions } from "./claim-deliveries";
import { recordAttemptOutcome, type TAttemptResult, type TOutcome } from "./record-attempt-outcome";
import { deliveredOutcomesStatement, recordDeliveredOutcomes } from "./record-delivered-outcomes";

type TPending = {
  claim: TClaim;
  result: TAttemptResult;
  resolve: (o: TOutcome) => void;
  reject: (e: unknown) => void;
};

export type TOutcomeWriter = {
  record(claim: TClaim, result: TAttemptResult): Promise<TOutcome>;
  /** Resolves when everything queued so far is written. */
  drain(): Promise<void>;
};

export type TOutcomeWriterOptions = {
  random?: () => number;
  maxBatch?: number;
  /**
   * How many attempts are still out (sent, answer not yet handed to this writer). While some are, a new outcome
   * waits for them — at most `maxWaitMs` — so that a wave of attempts answered within a millisecond or two is
   * written in one statement instead of "the first alone, then the rest". Without it, every outcome is
   * flushed at once.
   */
  outstanding?: () => number;
  maxWaitMs?: number;
  /**
   * The next claim, sent in the same transaction as a batch of outcomes (one commit instead of two). `room(settling)`
   * is asked before a batch of two or more is written, with the number of outcomes in it: how many
   * deliveries to claim once they are settled (0: none). `launch` then receives the claims (none if the write
   * failed) BEFORE the batch's outcomes are resolved, so the worker counts them before it frees the settled slots.
   */
  claimNext?: { room(settling: number): number; options: Omit<TClaimOptions, "limit">; launch(claims: TClaim[]): void };
};

export function createOutcomeWriter(db: Db, opts: TOutcomeWriterOptions = {}): TOutcomeWriter {
  const maxBatch = opts.maxBatch ?? 64;
  const maxWaitMs = opts.maxWaitMs ?? 2;
  let queue: TPending[] = [];
  let flushing: Promise<void> | null = null;
  let timer: NodeJS.Timeout | undefined;

  const writeOne = (p: TPending) => recordAttemptOutcome(db, p.claim, p.result, { random: opts.random }).then(p.resolve, p.reject);

  const flush = async (): Promise<void> => {
    while (queue.length > 0) {
      const batch = queue.slice(0, maxBatch).sort((a, b) => (a.claim.endpointId < b.claim.endpointId ? -1 : a.claim.endpointId > b.claim.endpointId ? 1 : 0));
      queue = queue.slice(maxBatch);
      if (batch.length === 1) {
        await writeOne(batch[0]!);
        continue;
      }
      const delivered = batch.filter((p) => p.result.ok);
      const failed = batch.filter((p) => !p.result.ok);
      const next = opts.claimNext;
      const room = next ? next.room(batch.length) : 0;
      let deliveredOutcomes: TOutcome[];
      let failedOutcomes: TOutcome[] = [];
      let claimed: unknown[] = [];
      let nextClaim: ReturnType<typeof nextClaimStatements> | null = null;
      try {
        // The outcomes first, then the claim's lock and the claim, in one transaction: the claim sees this
        // batch's leases ended, so the endpoints' caps count them free; the lock is held from there to the commit.
        nextClaim = room > 0 ? nextClaimStatements({ ...next!.options, limit: room }) : null;
        if (failed.length === 0 && nextClaim) {
          const written = deliveredOutcomesStatement(delivered);
          const results = await transactionInOneTrip(db, [written.query, nextClaim.lock, nextClaim.claim]);
          deliveredOutcomes = written.outcomes(results[0] as { id: string }[]);
          claimed = results[2]!;
        } else if (failed.length === 0) {
          // All successes: their one statement is atomic by itself, no transaction (BEGIN/COMMIT) around it.
          deliveredOutcomes = await recordDeliveredOutcomes(db, delivered);
        } else {
          [deliveredOutcomes, failedOutcomes, claimed] = await db.transaction((tx) =>
            Promise.all([
              recordDeliveredOutcomes(tx, delivered),
              Promise.all(failed.map((p) => recordAttemptOutcome(tx, p.claim, p.result, { random: opts.random }))),
              // Queued on the transaction's connection after the outcomes' statements, so run after them.
              nextClaim ? Promise.all([queryPrepared(tx, nextClaim.lock), queryPrepared<unknown>(tx, nextClaim.claim)]).then(([, rows]) => rows) : [],
            ]),
          );
        }
      } catch {
        // Nothing of the transaction was written: no claims, and the batch's outcomes are written one by one.
        if (room > 0) next!.launch([]);
        for (const p of batch) await writeOne(p);
        continue;
      }
      if (nextClaim) {
        // Null: the claim found lost leases to settle and claimed nothing; the claim that settles them runs on its
        // own (rare: a worker died). Its failure loses nothing: the deliveries stay queued for the next claim.
        const claims =
          claimsFromRows(claimed, nextClaim.leaseEndsAt) ??
          (await claimWithLostLeases(db, { ...next!.options, limit: room }).catch((err: unknown) => {
            logger().error({ err }, "claiming webhook deliveries failed");
            return [];
          }));
        next!.launch(claims);
      }
      delivered.forEach((p, i) => p.resolve(deliveredOutcomes[i]!));
      failed.forEach((p, i) => p.resolve(failedOutcomes[i]!));
    }
  };

  const kick = () => {
    clearTimeout(timer);
    timer = undefined;
    flushing ??= flush().finally(() => {
      flushing = null;
      // What queued up during the flush is written at once: it has already waited one flush.
      if (queue.length > 0) kick();
    });
  };

  /** A new outcome: write now if nothing else is expected soon, else wait (bounded) for the rest of its wave. */
  const schedule = () => {
    if (flushing) return; // the running flush writes it next
    if ((opts.outstanding?.() ?? 0) <= 0) return kick();
    timer ??= setTimeout(kick, maxWaitMs);
  };

  return {
    record(claim, result) {
      return new Promise<TOutcome>((resolve, reject) => {
        queue.push({ claim, result, resolve, reject });
        schedule();
      });
    },
    async drain() {
      if (queue.length > 0 && !flushing) kick();
      while (flushing) await flushing;
    },
  };
}
