CREATE TABLE "webhook_leases" (
	"delivery_id" text PRIMARY KEY NOT NULL,
	"endpoint_id" text NOT NULL,
	"claim_token" text NOT NULL,
	"attempt" integer NOT NULL,
	"claimed_at" timestamp with time zone NOT NULL,
	"locked_until" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "webhook_queue" (
	"delivery_id" text PRIMARY KEY NOT NULL,
	"endpoint_id" text NOT NULL,
	"event_id" text NOT NULL,
	"event" text NOT NULL,
	"next_attempt_at" timestamp with time zone NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
DROP INDEX "webhook_deliveries_due_idx";--> statement-breakpoint
DROP INDEX "webhook_deliveries_endpoint_first_due_idx";--> statement-breakpoint
DROP INDEX "webhook_deliveries_endpoint_retry_due_idx";--> statement-breakpoint
DROP INDEX "webhook_deliveries_in_flight_idx";--> statement-breakpoint
ALTER TABLE "webhook_queue" ADD CONSTRAINT "webhook_queue_delivery_id_webhook_deliveries_id_fk" FOREIGN KEY ("delivery_id") REFERENCES "public"."webhook_deliveries"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "webhook_leases_endpoint_idx" ON "webhook_leases" USING btree ("endpoint_id");--> statement-breakpoint
CREATE INDEX "webhook_queue_first_due_idx" ON "webhook_queue" USING btree ("endpoint_id","next_attempt_at") WHERE "webhook_queue"."attempts" = 0;--> statement-breakpoint
CREATE INDEX "webhook_queue_retry_due_idx" ON "webhook_queue" USING btree ("endpoint_id","next_attempt_at") WHERE "webhook_queue"."attempts" > 0;--> statement-breakpoint
ALTER TABLE "webhook_queue" SET (fillfactor = 70);--> statement-breakpoint
ALTER TABLE "webhook_leases" SET (fillfactor = 70);--> statement-breakpoint
ALTER TABLE "webhook_deliveries" SET (fillfactor = 70);--> statement-breakpoint
INSERT INTO "webhook_queue" ("delivery_id", "endpoint_id", "event_id", "event", "next_attempt_at", "attempts")
SELECT "id", "endpoint_id", "event_id", "event", "next_attempt_at",
  CASE WHEN "claim_token" IS NOT NULL THEN greatest("attempts" - 1, 0) ELSE "attempts" END
FROM "webhook_deliveries" WHERE "status" IN ('PENDING', 'FAILED');--> statement-breakpoint
INSERT INTO "webhook_leases" ("delivery_id", "endpoint_id", "claim_token", "attempt", "claimed_at", "locked_until")
SELECT "id", "endpoint_id", "claim_token", greatest("attempts", 1), coalesce("last_attempt_at", "updated_at"), coalesce("locked_until", "updated_at")
FROM "webhook_deliveries" WHERE "status" IN ('PENDING', 'FAILED') AND "claim_token" IS NOT NULL;--> statement-breakpoint
ALTER TABLE "webhook_deliveries" DROP COLUMN "locked_until";--> statement-breakpoint
ALTER TABLE "webhook_deliveries" DROP COLUMN "claim_token";
