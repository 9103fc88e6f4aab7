/**
 * The webhook delivery job. Each worker tick (a wake-up after commit, or the poll) "pumps": claims as many
 * due deliveries as there is room for (`concurrency` per process) and starts them WITHOUT waiting, so a
 * slow receiver never delays the next claim. When an attempt finishes, the job pumps again by itself.
 * Before sending, the claims of a batch are confirmed together (send-gate.ts: still ours, endpoint not paused);
 * outcomes go through a group-commit writer (outcome-writer.ts): one transaction per batch under load, which
 * also carries the next claim when the batch's settled slots make room for one (`claimNext`; the settled
 * attempts leave the in-flight map just after, so for a moment it holds up to `concurrency` + the batch, of
 * which at most `concurrency` are still sending).
 * `stop()` (graceful shutdown): no more claims; attempts in flight are aborted and their claims released
 * (fenced by the token), so the next worker retries them at once instead of after the lease.
 */
import { setMaxListeners } from "node:events";
import type { DbHandle } from "@/server/db/client";
import { claimDeliveries, type TClaim, type TClaimOptions } from "@/server/domain/webhooks/delivery/claim-deliveries";
import { createOutcomeWriter, type TOutcomeWriter } from "@/server/domain/webhooks/delivery/outcome-writer";
import { performDelivery, type TDeliveryDeps } from "@/server/domain/webhooks/delivery/perform-delivery";
import type { TAttemptResult } from "@/server/domain/webhooks/delivery/record-attempt-outcome";
import { LONG_ATTEMPT_MS, WEBHOOK_LIMITS } from "@/server/domain/webhooks/limits";
import { createSendGate, type TSendGate } from "@/server/domain/webhooks/delivery/send-gate";
import { logger } from "@/server/lib/logger";
import type { TJob } from "./worker";

export type TDeliveryJobOptions = {
  /** Attempts in flight per process. */
  concurrency?: number;
  /** An attempt in flight this long (ms) no longer counts toward the claim's low water (see `claimRoom`). */
  longAttemptMs?: number;
  claim?: Omit<TClaimOptions, "limit">;
  deps?: Omit<TDeliveryDeps, "signal" | "record" | "confirm">;
};

export function createWebhookDeliveryJob(opts: TDeliveryJobOptions = {}): TJob {
  const concurrency = opts.concurrency ?? WEBHOOK_LIMITS.workerConcurrency;
  const longAttemptMs = opts.longAttemptMs ?? LONG_ATTEMPT_MS;
  // In start order (a Map keeps insertion order), so the attempts running longer than `longAttemptMs` are a prefix.
  const inFlight = new Map<string, { done: Promise<void>; startedAt: number }>();
  let wake: ReturnType<typeof setTimeout> | undefined;
  const shutdown = new AbortController();
  // Every attempt in flight listens for the shutdown (attempt-signal.ts): up to `concurrency` listeners.
  setMaxListeners(concurrency + 8, shutdown.signal);
  let handle: DbHandle | undefined;
  let writer: TOutcomeWriter | undefined;
  let gate: TSendGate | undefined;
  let pumping: Promise<void> | null = null;
  let again = false;

  // Attempts launched whose outcome has not reached the writer yet: the writer waits (briefly) for them.
  let outstanding = 0;
  // Slots promised to a claim the outcome writer is sending with a batch of outcomes (see `claimNext`): no other
  // claim starts meanwhile.
  let reserved = 0;

  const launch = (db: DbHandle["db"], claim: TClaim) => {
    writer ??= createOutcomeWriter(db, {
      random: opts.deps?.random,
      outstanding: () => outstanding,
      claimNext: {
        options: opts.claim ?? {},
        room(settling) {
          if (shutdown.signal.aborted || pumping) return 0;
          const room = Math.max(0, claimRoom(settling));
          reserved = room;
          return room;
        },
        launch(claims) {
          reserved = 0;
          for (const claim of claims) launch(db, claim);
        },
      },
    });
    gate ??= createSendGate(db);
    const write = writer;
    outstanding += 1;
    let counted = true;
    const settle = () => {
      if (counted) outstanding -= 1;
      counted = false;
    };
    const record = (c: TClaim, result: TAttemptResult) => {
      settle();
      return write.record(c, result);
    };
    const attempt = performDelivery(db, claim, { ...opts.deps, signal: shutdown.signal, record, confirm: gate.confirm })
      .then((outcome) => {
        logger().info(
          {
            deliveryId: claim.id,
            endpointId: claim.endpointId,
            attempt: claim.attempt,
            outcome: outcome.kind,
            status: "status" in outcome ? outcome.status : undefined,
          },
          "webhook attempt finished",
        );
      })
      .catch((err: unknown) => logger().error({ err, deliveryId: claim.id }, "webhook attempt failed to record; the lease will expire and it is retried"))
      .finally(() => {
        settle();
        inFlight.delete(claim.id);
        if (!shutdown.signal.aborted) void pump();
      });
    inFlight.set(claim.id, { done: attempt, startedAt: performance.now() });
  };

  /**
   * How many deliveries to claim now. Claims go in batches: with attempts in flight, the worker waits until half
   * of its slots are free (each completion pumps again) rather than paying a claim transaction per freed slot —
   * half the claims of waiting for a quarter (−15 % CPU per delivery, bench/README.md, issue 22). Slots held by
   * attempts running longer than `longAttemptMs` are left out of that half: otherwise a few endpoints with slow
   * receivers (8 slots each, up to the 10 s deadline an attempt) would hold every other endpoint's claims back
   * until their attempts end. With them left out, slow receivers hold the others back for at most `longAttemptMs`:
   * when the worker waits, a timer pumps again as its oldest attempt turns long.
   */
  const claimRoom = (settling = 0): number => {
    if (reserved > 0) return 0;
    const room = concurrency - inFlight.size + settling;
    if (room <= 0 || inFlight.size === settling) return room;
    const cutoff = performance.now() - longAttemptMs;
    let long = 0;
    let firstYoung: number | undefined;
    for (const { startedAt } of inFlight.values()) {
      if (startedAt > cutoff) {
        firstYoung = startedAt;
        break;
      }
      long += 1;
    }
    if (room >= Math.max(1, Math.floor((concurrency - long) / 2))) return room;
    if (firstYoung !== undefined && !wake) {
      wake = setTimeout(
        () => {
          wake = undefined;
          if (!shutdown.signal.aborted) void pump();
        },
        Math.max(1, Math.ceil(firstYoung + longAttemptMs - performance.now())),
      );
      wake.unref?.();
    }
    return 0;
  };

  const pump = (): Promise<void> => {
    if (pumping) {
      again = true;
      return pumping;
    }
    pumping = (async () => {
      do {
        again = false;
        while (handle && !shutdown.signal.aborted) {
          const room = claimRoom();
          if (room <= 0) break;
          const claims = await claimDeliveries(handle.db, { ...opts.claim, limit: room });
          for (const claim of claims) launch(handle.db, claim);
          if (claims.length < room) break;
        }
      } while (again && !shutdown.signal.aborted);
    })()
      .catch((err: unknown) => logger().error({ err }, "claiming webhook deliveries failed"))
      .finally(() => {
        pumping = null;
        // A pump requested after the loop's last check (it may finish without awaiting) must not be lost.
        if (again && !shutdown.signal.aborted) void pump();
      });
    return pumping;
  };

  return {
    name: "webhook-delivery",
    async run(h, signal) {
      if (signal.aborted || shutdown.signal.aborted) return;
      handle = h;
      await pump();
    },
    async stop() {
      shutdown.abort();
      clearTimeout(wake);
      if (pumping) await pumping;
      // Until none is left: a claim sent with a batch of outcomes may launch attempts (which hand their claims
      // back at once, the shutdown being under way) after this started waiting.
      while (inFlight.size > 0) await Promise.all([...inFlight.values()].map((a) => a.done));
      await writer?.drain();
    },
  };
}
