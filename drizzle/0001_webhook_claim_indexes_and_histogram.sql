CREATE TABLE "webhook_attempt_histogram_base" (
	"series" text PRIMARY KEY NOT NULL,
	"value" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE INDEX "webhook_deliveries_endpoint_first_due_idx" ON "webhook_deliveries" USING btree ("endpoint_id","next_attempt_at") WHERE "webhook_deliveries"."status" not in ('DELIVERED','EXHAUSTED') and "webhook_deliveries"."attempts" = 0;--> statement-breakpoint
CREATE INDEX "webhook_deliveries_endpoint_retry_due_idx" ON "webhook_deliveries" USING btree ("endpoint_id","next_attempt_at") WHERE "webhook_deliveries"."status" not in ('DELIVERED','EXHAUSTED') and "webhook_deliveries"."attempts" > 0;--> statement-breakpoint
CREATE INDEX "webhook_deliveries_in_flight_idx" ON "webhook_deliveries" USING btree ("endpoint_id") WHERE "webhook_deliveries"."claim_token" is not null;