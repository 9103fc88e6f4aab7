ALTER TABLE "webhook_flights" ADD COLUMN "leased_through" timestamp with time zone;--> statement-breakpoint
UPDATE "webhook_flights" fl SET "leased_through" = coalesce(
  (SELECT max(q."next_attempt_at") FROM "webhook_queue" q WHERE q."endpoint_id" = fl."endpoint_id" AND q."claim_token" IS NOT NULL),
  '-infinity'::timestamptz);
