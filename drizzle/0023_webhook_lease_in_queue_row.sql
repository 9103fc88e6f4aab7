CREATE TABLE "webhook_flights" (
	"endpoint_id" text PRIMARY KEY NOT NULL,
	"delivery_ids" text[] NOT NULL
);
--> statement-breakpoint
ALTER TABLE "webhook_queue" ADD COLUMN "claim_token" text;--> statement-breakpoint
ALTER TABLE "webhook_queue" ADD COLUMN "lease_attempt" integer;--> statement-breakpoint
ALTER TABLE "webhook_queue" ADD COLUMN "claimed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "webhook_queue" ADD COLUMN "locked_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "webhook_flights" ADD CONSTRAINT "webhook_flights_endpoint_id_webhook_endpoints_id_fk" FOREIGN KEY ("endpoint_id") REFERENCES "public"."webhook_endpoints"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_flights" SET (fillfactor = 50);--> statement-breakpoint
UPDATE "webhook_queue" q SET "claim_token" = f."claim_token", "lease_attempt" = f."attempt", "claimed_at" = f."claimed_at", "locked_until" = f."locked_until"
FROM "webhook_leases" f WHERE f."delivery_id" = q."delivery_id";--> statement-breakpoint
INSERT INTO "webhook_flights" ("endpoint_id", "delivery_ids")
SELECT q."endpoint_id", array_agg(q."delivery_id") FROM "webhook_queue" q
WHERE q."claim_token" IS NOT NULL AND EXISTS (SELECT 1 FROM "webhook_endpoints" e WHERE e."id" = q."endpoint_id")
GROUP BY q."endpoint_id";
