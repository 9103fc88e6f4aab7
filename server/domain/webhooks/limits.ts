/** The numbers of the spec and the design note, in one place (docs/webhooks.md quotes them). */
export const WEBHOOK_LIMITS = {
  /** Spec: nine attempts, then EXHAUSTED. */
  maxAttempts: 9,
  // Ten consecutive failures make an endpoint Failing: FAILING_AFTER_FAILURES in health/failing.ts, with the rest of that rule.
  /** Spec: the receiver must answer within 10 s; one deadline over connect, headers and body. */
  deadlineMs: 10_000,
  /** A claimed delivery is leased for 3 × the deadline; after that another worker may take it over. */
  leaseMs: 30_000,
  /** Response bytes read at most (the rest is aborted); the first 1,000 characters are stored. */
  responseReadBytes: 4096,
  responseStoredChars: 1000,
  /**
   * In-flight deliveries per endpoint, of which retries may hold at most `perEndpointCap - firstAttemptReserve`.
   * 8 (was 4): with 4, a worker's batches stayed small enough that their fixed costs (a claim, a pre-send check
   * and an outcome statement per batch) bounded the drain; 8 gave +25–35 % in bench/webhooks.ts, interleaved.
   */
  perEndpointCap: 8,
  firstAttemptReserve: 4,
  /** After a secret rotation the previous secret keeps signing beside the new one for 24 h. */
  rotationOverlapMs: 24 * 60 * 60 * 1000,
  /** Jitter only ever adds, up to this fraction of the scheduled delay. */
  maxJitter: 0.1,
  /** A Retry-After hint is honoured up to this long (a receiver cannot park a delivery for a year). */
  maxRetryAfterMs: 24 * 60 * 60 * 1000,
  /** Attempts in flight per worker process (its batches are at most this large). */
  workerConcurrency: 64,
  /**
   * Endpoints with queued deliveries one claim looks at, taking turns (claim-deliveries.ts): a claim's cost
   * follows this, not the number of endpoints with work. 32 × the cap of 8 leaves room for a full batch; 16, 24
   * and 32 measured alike at 100 and 1,000 endpoints, 64 costlier (bench/README.md, "Endpoints take turns").
   */
  claimWindow: 32,
  /**
   * Claiming ahead (claim-deliveries.ts, webhook-delivery-job.ts): leases the only live worker may hold of an
   * endpoint it alone holds (3 × the cap: it sends at most the cap at once and fills a freed slot from the rest
   * without a claim); a worker process holds 3 × its attempts in flight in all. Drain 1.14–1.23 × at 10,000
   * deliveries (bench/README.md, "Claiming ahead").
   */
  claimAhead: 24,
  /** A worker writes its row in webhook_workers this often; a row older than `workerAliveMs` is a dead worker's. */
  workerHeartbeatMs: 2_000,
  workerAliveMs: 10_000,
} as const;

/**
 * An attempt in flight this long no longer holds the worker's next claim back (webhook-delivery-job.ts): slow
 * receivers delay other endpoints' deliveries by at most this much, not by their 10 s deadline.
 */
export const LONG_ATTEMPT_MS = 1_000;
