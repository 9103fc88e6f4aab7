/**
 * The webhook delivery job. Each worker tick (a wake-up after commit, or the poll) "pumps": claims as many
 * due deliveries as there is room for (`concurrency` per process) and starts them WITHOUT waiting, so a
 * slow receiver never delays the next claim. When an attempt finishes, the job pumps again by itself.
 * Before sending, the claims of a batch are confirmed together (send-gate.ts: still ours, endpoint not paused);
 * outcomes go through a group-commit writer (outcome-writer.ts): one transaction per batch under load, which
 * also carries the next claim when the batch's settled slots make room for one (`claimNext`; the settled
 * attempts leave the in-flight map just after, so for a moment it holds up to `concurrency` + the batch, of
 * which at most `concurrency` are still sending).
 * Claiming ahead: the worker holds up to `leases` claims (3 × `concurrency`), up to WEBHOOK_LIMITS.claimAhead of
 * an endpoint that it alone holds while it is the only live worker (claim-deliveries.ts says when the database
 * allows it). The claims not yet sent
 * wait in a local queue (`waiting`, oldest first); one starts while its endpoint has fewer than the cap's requests
 * in flight FROM THIS PROCESS and the process fewer than `concurrency`, and an answer handed to the outcome writer
 * frees its request's slot at once, so the next waiting claim of that endpoint goes out without a claim in between.
 * A waiting claim whose lease has less than two deadlines left (it waited ~10 s behind a slow receiver) is given
 * back instead of sent (release-claim.ts), so every request still ends well inside its lease. The worker's row
 * in webhook_workers (written every `workerHeartbeatMs`) is what tells the claims whether it is the only live one.
 * Order: a package's deliveries to an endpoint go out one at a time, in the order they wait in (due time, then the
 * package's `sequence`: claim-deliveries.ts), each after the previous one's answer — so while none fails, one
 * worker's endpoint receives a package's events in order. A failed attempt does not hold the others back: its
 * retry is due later and arrives after later events (the spec: order by `timestamp`/`sequence`). Deliveries of one
 * package claimed by two workers are not ordered between them.
 * `stop()` (graceful shutdown): no more claims; the waiting claims are given back and attempts in flight are
 * aborted and their claims released (fenced by the token), so the next worker takes them at once instead of after
 * the lease; the worker's row is deleted.
 */
import { randomBytes } from "node:crypto";
import { setMaxListeners } from "node:events";
import { isYoungClaim, YOUNG_LEASE_LEFT_MS } from "@/server/domain/webhooks/delivery/confirm-claims";
import { markAlive, markGone } from "@/server/domain/webhooks/delivery/live-workers";
import { releaseClaim } from "@/server/domain/webhooks/delivery/release-claim";
import { now } from "@/server/lib/clock";
import type { DbHandle } from "@/server/db/client";
import { claimDeliveries, type TClaim, type TClaimOptions } from "@/server/domain/webhooks/delivery/claim-deliveries";
import { orderKey } from "@/server/domain/webhooks/delivery/delivery-order";
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
  /**
   * Claims held per process, in flight and waiting to be sent: 3 × `concurrency` by default (claiming ahead); equal
   * to `concurrency`, no claiming ahead (nor with a lease shorter than 3 deadlines, as some tests set).
   */
  leases?: number;
  /** This worker's id, the prefix of its lease tokens (tests); random by default. */
  workerId?: string;
  /** An attempt in flight this long (ms) no longer counts toward the claim's low water (see `claimRoom`). */
  longAttemptMs?: number;
  claim?: Omit<TClaimOptions, "limit">;
  deps?: Omit<TDeliveryDeps, "signal" | "record" | "confirm">;
};

export function createWebhookDeliveryJob(opts: TDeliveryJobOptions = {}): TJob {
  const concurrency = opts.concurrency ?? WEBHOOK_LIMITS.workerConcurrency;
  const longAttemptMs = opts.longAttemptMs ?? LONG_ATTEMPT_MS;
  const leaseMs = opts.claim?.leaseMs ?? WEBHOOK_LIMITS.leaseMs;
  const leases = leaseMs >= YOUNG_LEASE_LEFT_MS + WEBHOOK_LIMITS.deadlineMs ? Math.max(concurrency, opts.leases ?? 3 * concurrency) : concurrency;
  const claimsAhead = leases > concurrency;
  const workerId = opts.workerId ?? randomBytes(6).toString("hex");
  const perEndpoint = opts.claim?.perEndpointCap ?? WEBHOOK_LIMITS.perEndpointCap;
  const claimOptions: Omit<TClaimOptions, "limit"> = claimsAhead ? { ahead: WEBHOOK_LIMITS.claimAhead, worker: workerId, ...opts.claim } : { ...opts.claim };
  // Claims held and not sent yet, oldest first; this process's requests per endpoint (from the start of an attempt
  // to its answer reaching the writer); claims being given back (stop waits for them).
  const waiting: TClaim[] = [];
  const sendingTo = new Map<string, number>();
  // The packages with a request out to an endpoint (`orderKey`): their next deliveries there wait for its answer.
  const sendingPackage = new Set<string>();
  const holdsBack = (claim: TClaim) => {
    const key = orderKey(claim);
    return key !== null && sendingPackage.has(key);
  };
  const releasing = new Set<Promise<unknown>>();
  let heartbeat: ReturnType<typeof setInterval> | undefined;
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

  /**
   * Gives a claim back (fenced by its token): it was never sent, so its attempt is uncounted, and it is due at once —
   * the worker claims again once it is back (a claim started before would not see it).
   */
  const giveBack = (db: DbHandle["db"], claim: TClaim) => {
    const done = releaseClaim(db, claim)
      .catch((err: unknown) => logger().error({ err, deliveryId: claim.id }, "giving a webhook claim back failed; its lease will expire"))
      .finally(() => {
        releasing.delete(done);
        if (!shutdown.signal.aborted) void pump();
      });
    releasing.add(done);
  };

  /** New claims (oldest first): queued, then sent as their endpoints' slots allow. */
  const accept = (db: DbHandle["db"], claims: readonly TClaim[]) => {
    if (shutdown.signal.aborted) {
      for (const claim of claims) giveBack(db, claim);
      return;
    }
    waiting.push(...claims);
    dispatch(db);
  };

  /**
   * Starts the waiting claims that fit: fewer than `concurrency` requests out, fewer than the cap to their endpoint,
   * and none of their package to their endpoint (its events go out one at a time, in the order they wait in).
   */
  const dispatch = (db: DbHandle["db"]) => {
    if (shutdown.signal.aborted) return;
    const at = now();
    for (let i = 0; i < waiting.length && outstanding < concurrency;) {
      const claim = waiting[i]!;
      if ((sendingTo.get(claim.endpointId) ?? 0) >= perEndpoint || holdsBack(claim)) {
        i += 1;
        continue;
      }
      waiting.splice(i, 1);
      if (claimsAhead && !isYoungClaim(claim, at)) giveBack(db, claim);
      else launch(db, claim);
    }
  };

  const launch = (db: DbHandle["db"], claim: TClaim) => {
    writer ??= createOutcomeWriter(db, {
      random: opts.deps?.random,
      outstanding: () => outstanding,
      claimNext: {
        options: claimOptions,
        room(settling) {
          if (shutdown.signal.aborted || pumping) return 0;
          const room = Math.max(0, claimRoom(settling));
          reserved = room;
          return room;
        },
        launch(claims) {
          reserved = 0;
          accept(db, claims);
        },
      },
    });
    gate ??= createSendGate(db);
    const write = writer;
    outstanding += 1;
    sendingTo.set(claim.endpointId, (sendingTo.get(claim.endpointId) ?? 0) + 1);
    const key = orderKey(claim);
    if (key !== null) sendingPackage.add(key);
    let counted = true;
    // The request is over (its answer reached the writer, or it ended otherwise): its slot goes to the next waiting
    // claim, and its package's next event to that endpoint may go.
    const settle = () => {
      if (!counted) return;
      counted = false;
      outstanding -= 1;
      const left = sendingTo.get(claim.endpointId)! - 1;
      if (left > 0) sendingTo.set(claim.endpointId, left);
      else sendingTo.delete(claim.endpointId);
      if (key !== null) sendingPackage.delete(key);
      dispatch(db);
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
    const held = inFlight.size + waiting.length;
    const room = leases - held + settling;
    if (room <= 0 || held === settling) return room;
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
          const claims = await claimDeliveries(handle.db, { ...claimOptions, limit: room });
          accept(handle.db, claims);
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
      if (claimsAhead && !heartbeat) {
        // Live before the first claim, so that claim may already claim ahead.
        const db = h.db;
        const beat = () => markAlive(db, workerId).catch((err: unknown) => logger().error({ err }, "writing the webhook worker's heartbeat failed"));
        heartbeat = setInterval(() => void beat(), WEBHOOK_LIMITS.workerHeartbeatMs);
        heartbeat.unref?.();
        await beat();
      }
      await pump();
    },
    async stop() {
      shutdown.abort();
      clearTimeout(wake);
      clearInterval(heartbeat);
      if (pumping) await pumping;
      // The claims never sent go back at once.
      if (handle) for (const claim of waiting.splice(0)) giveBack(handle.db, claim);
      // Until none is left: a claim sent with a batch of outcomes may arrive (and be given back at once, the
      // shutdown being under way) after this started waiting.
      while (inFlight.size > 0 || releasing.size > 0) await Promise.all([...[...inFlight.values()].map((a) => a.done), ...releasing]);
      await writer?.drain();
      if (heartbeat && handle) await markGone(handle.db, workerId).catch((err: unknown) => logger().error({ err }, "deleting the webhook worker's row failed"));
    },
  };
}
