import { sql } from "drizzle-orm";
import { bigint, boolean, index, integer, json, jsonb, pgTable, primaryKey, text } from "drizzle-orm/pg-core";
import { createdAt, id, ts, updatedAt } from "./columns";
import { tenantColumns } from "./organisations";

export const DELIVERY_STATUSES = ["PENDING", "DELIVERED", "FAILED", "EXHAUSTED"] as const;
export type TDeliveryStatus = (typeof DELIVERY_STATUSES)[number];

export const webhookEndpoints = pgTable(
  "webhook_endpoints",
  {
    id: id(),
    ...tenantColumns(),
    url: text("url").notNull(),
    description: text("description"),
    events: jsonb("events").$type<string[]>().notNull(),
    enabled: boolean("enabled").notNull().default(true),
    /** AES-256-GCM ciphertext of the current secret (`whsec_…`). */
    secretEncrypted: text("secret_encrypted").notNull(),
    /** After a rotation the previous secret keeps signing until `previousSecretExpiresAt`. */
    previousSecretEncrypted: text("previous_secret_encrypted"),
    previousSecretExpiresAt: ts("previous_secret_expires_at"),
    consecutiveFailures: integer("consecutive_failures").notNull().default(0),
    /** Set when the counter reaches 10; cleared when re-enabled. */
    failingSince: ts("failing_since"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index("webhook_endpoints_ws_idx").on(t.workspaceId, t.createdAt)],
);

/** The outbox: one row per event raised; the body is serialised once so every attempt signs the same bytes. */
export const webhookEvents = pgTable(
  "webhook_events",
  {
    id: id(),
    ...tenantColumns(),
    event: text("event").notNull(),
    packageId: text("package_id"),
    sequence: integer("sequence"),
    test: boolean("test").notNull().default(false),
    payload: jsonb("payload").$type<Record<string, unknown>>().notNull(),
    body: text("body").notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("webhook_events_ws_idx").on(t.workspaceId, t.createdAt)],
);

/** Per-package event counter behind the additive `sequence` field. */
export const packageEventSequences = pgTable(
  "package_event_sequences",
  {
    packageId: text("package_id").notNull(),
    lastSequence: integer("last_sequence").notNull(),
  },
  (t) => [primaryKey({ columns: [t.packageId] })],
);

/**
 * The delivery record: one row per (event, endpoint), its status and last outcome. Written when the event is
 * recorded and once per attempt's outcome (HOT: none of its indexed columns changes). What workers claim is
 * the narrow queue below.
 *
 * Its event and endpoint are not foreign keys, nor is the queue row's delivery (migration 0030): a key's check
 * ran one query per row, three per delivery in a fan-out (~75 % of a fan-out to 100 endpoints, bench/README.md).
 * Rows are only made where the keys hold by construction: the fan-out inserts the event, its deliveries and
 * their queue rows in one statement, taking the endpoints it selects `FOR KEY SHARE` (as the key's check did,
 * so an endpoint cannot be deleted until the fan-out commits); a replay puts back in the queue deliveries its
 * update has locked. What the keys' cascades did, statement triggers do: deleting events or endpoints deletes
 * their deliveries, and deleting deliveries deletes their queue rows (and their attempts, migration 0028),
 * whatever deletes them (an endpoint, retention, a workspace's cascade). TRUNCATE fires no delete trigger: truncate
 * `webhook_queue` and `webhook_attempts` with `webhook_deliveries`.
 */
export const webhookDeliveries = pgTable(
  "webhook_deliveries",
  {
    /** Stable across retries and replays: sent as X-Foliosign-Delivery-Id and webhook-id. */
    id: id(),
    /** Its event; not a foreign key (see below). */
    eventId: text("event_id").notNull(),
    /** Its endpoint; not a foreign key (see below). */
    endpointId: text("endpoint_id").notNull(),
    event: text("event").notNull(),
    status: text("status").$type<TDeliveryStatus>().notNull().default("PENDING"),
    /** Attempts counted at the last outcome (an attempt in flight is counted by its lease). */
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: ts("next_attempt_at").notNull().defaultNow(),
    lastAttemptAt: ts("last_attempt_at"),
    lastResponseStatus: integer("last_response_status"),
    lastResponseBody: text("last_response_body"),
    lastError: text("last_error"),
    lastDurationMs: integer("last_duration_ms"),
    completedAt: ts("completed_at"),
    replayedAt: ts("replayed_at"),
    replayedByUserId: text("replayed_by_user_id"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index("webhook_deliveries_endpoint_idx").on(t.endpointId, t.createdAt),
    index("webhook_deliveries_created_idx").on(t.createdAt),
    // Deliveries by their event: retention's check that an event has none left, and the trigger that deletes an
    // event's deliveries with it (migration 0031). Without it each read scanned the whole retained history: ~1 s a
    // batch of 1,000 events at a million deliveries (`npm run bench:retention`, bench/README.md).
    index("webhook_deliveries_event_idx").on(t.eventId),
  ],
);

/**
 * The queue: one narrow row per queued (PENDING or FAILED) delivery, deleted at its final outcome. Its due
 * time and counted attempts change only at a failed outcome. A claim writes the lease into the row's
 * unindexed lease columns (token, attempt, claimed at, lease end): a HOT update, no index entry. Per endpoint,
 * queued first attempts and queued retries have an index each (the claim's candidates).
 */
export const webhookQueue = pgTable(
  "webhook_queue",
  {
    /** Its delivery; not a foreign key (see webhookDeliveries). */
    deliveryId: text("delivery_id").primaryKey(),
    endpointId: text("endpoint_id").notNull(),
    eventId: text("event_id").notNull(),
    event: text("event").notNull(),
    nextAttemptAt: ts("next_attempt_at").notNull(),
    /** Attempts counted before the one a lease holds. */
    attempts: integer("attempts").notNull().default(0),
    /** The lease of an attempt in flight (or lost, once `lockedUntil` passed): all four set, or none. */
    claimToken: text("claim_token"),
    /** The attempt number the lease is (counted at the claim). */
    leaseAttempt: integer("lease_attempt"),
    claimedAt: ts("claimed_at"),
    lockedUntil: ts("locked_until"),
  },
  (t) => [
    index("webhook_queue_first_due_idx")
      .on(t.endpointId, t.nextAttemptAt)
      .where(sql`${t.attempts} = 0`),
    index("webhook_queue_retry_due_idx")
      .on(t.endpointId, t.nextAttemptAt)
      .where(sql`${t.attempts} > 0`),
  ],
);

/**
 * Per endpoint, how far into its due order its claims have leased: the latest due time (`next_attempt_at`) of
 * any delivery a claim leased. A queue row's due time does not change while it is leased, so every leased row
 * of the endpoint lies at or before this mark in the endpoint's due indexes: the claim counts the endpoint's
 * leases (its cap, its lost ninth attempts, its lost attempts due again) by walking that stretch, which is the
 * stretch its candidates' walk reads anyway. Raised by a claim, once per endpoint that got deliveries; never
 * written by an outcome.
 */
export const webhookFlights = pgTable("webhook_flights", {
  endpointId: text("endpoint_id")
    .primaryKey()
    .references(() => webhookEndpoints.id, { onDelete: "cascade" }),
  leasedThrough: ts("leased_through").notNull(),
});

/**
 * Every attempt, as sent and as answered. Its delivery is not a foreign key: each row is written by the
 * statement that updates (and so locks) its delivery, and a foreign key's check cost a query per row on the
 * webhook engine's hot path (bench/README.md). Deleting deliveries deletes their attempts as a cascade did:
 * a statement trigger on webhook_deliveries (migration 0028), whatever deletes them (retention, an endpoint or
 * an event deleted).
 */
export const webhookAttempts = pgTable(
  "webhook_attempts",
  {
    /**
     * Unique (time-ordered and random, generated). Not a key: nothing looks an attempt up by its id (an attempt is
     * found through its delivery), and the key's index cost the attempt log's appends what the index by endpoint
     * now does (migration 0033).
     */
    id: text("id").notNull(),
    deliveryId: text("delivery_id").notNull(),
    /** Its delivery's endpoint (migration 0033), so the health figures read an endpoint's attempts by time. */
    endpointId: text("endpoint_id").notNull(),
    attemptNumber: integer("attempt_number").notNull(),
    startedAt: ts("started_at").notNull(),
    durationMs: integer("duration_ms"),
    requestHeaders: json("request_headers").$type<Record<string, string>>(),
    responseStatus: integer("response_status"),
    responseBody: text("response_body"),
    error: text("error"),
    remoteAddress: text("remote_address"),
    createdAt: createdAt(),
  },
  (t) => [
    index("webhook_attempts_delivery_idx").on(t.deliveryId, t.attemptNumber),
    // An endpoint's attempts by time (migration 0033): the dashboards' 24-hour figures, its chart and its newest
    // attempt read a stretch of it. Before, each of those reads joined every retained delivery of the endpoints to
    // its attempts (bench:dashboards). In place of the key by id, so the attempt log keeps two indexes (bench:peers).
    index("webhook_attempts_endpoint_idx").on(t.endpointId, t.startedAt),
  ],
);

/**
 * What /api/metrics counts instance-wide, kept by statement triggers (migration 0034_webhook_tallies) so a scrape
 * sums a few rows instead of reading every retained delivery and attempt: each row is the change one statement
 * made, appended in its writer's transaction — never an update of a shared row, so writers never wait on each other
 * — and the fold-webhook-tallies job folds them into one row (server/domain/webhooks/jobs.ts). The sum of all rows
 * is exact in any snapshot.
 * - `delivered` / `exhausted`: stored deliveries in that status (triggers on webhook_deliveries: inserted, deleted
 *   — retention, an endpoint or event deleted —, or moved by an update);
 * - `delivered_total` / `exhausted_total`: deliveries that reached that status, ever (a counter: removals take
 *   nothing from it; a replayed delivery that ends again counts again) — migration 0035;
 * - `attempts`, the `le_*` buckets (cumulative: attempts that took at most that long) and `duration_ms` (their
 *   sum): every attempt with a duration ever logged (a trigger on webhook_attempts' inserts), so the Prometheus
 *   histogram only ever grows — removing attempts (retention, deletions) takes nothing from it.
 * The bucket columns are DURATION_BUCKETS (server/domain/webhooks/health/webhook-totals.ts); the triggers count by the same bounds.
 */
const tally = (name: string) => bigint(name, { mode: "number" }).notNull().default(0);
export const webhookTallies = pgTable("webhook_tallies", {
  // Ids handed out 100 at a time per connection (one sequence write per 100 appends); the fold needs them unique only.
  id: bigint("id", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity({ cache: 100 }),
  delivered: tally("delivered"),
  exhausted: tally("exhausted"),
  deliveredTotal: tally("delivered_total"),
  exhaustedTotal: tally("exhausted_total"),
  attempts: tally("attempts"),
  le50ms: tally("le_50ms"),
  le100ms: tally("le_100ms"),
  le250ms: tally("le_250ms"),
  le500ms: tally("le_500ms"),
  le1s: tally("le_1s"),
  le2500ms: tally("le_2500ms"),
  le5s: tally("le_5s"),
  le10s: tally("le_10s"),
  durationMs: tally("duration_ms"),
});

export type TWebhookEndpointRow = typeof webhookEndpoints.$inferSelect;
export type TWebhookEventRow = typeof webhookEvents.$inferSelect;
export type TPackageEventSequenceRow = typeof packageEventSequences.$inferSelect;
export type TWebhookDeliveryRow = typeof webhookDeliveries.$inferSelect;
export type TWebhookAttemptRow = typeof webhookAttempts.$inferSelect;
export type TWebhookTallyRow = typeof webhookTallies.$inferSelect;

/**
 * The delivery workers alive now: each worker process writes its row every few seconds (webhook-delivery-job.ts)
 * and deletes it when it stops. A claim reads the live ones (`seen_at` within WEBHOOK_LIMITS.workerAliveMs): only the
 * only live worker claims ahead (claim-deliveries.ts, "claiming ahead").
 */
export const webhookWorkers = pgTable("webhook_workers", {
  /** The worker's id, also the prefix of its claim tokens. */
  id: text("id").primaryKey(),
  seenAt: ts("seen_at").notNull(),
});
