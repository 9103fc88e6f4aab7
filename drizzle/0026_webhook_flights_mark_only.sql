ALTER TABLE "webhook_flights" ALTER COLUMN "leased_through" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "webhook_flights" DROP COLUMN "delivery_ids";