-- The live delivery workers, for claiming ahead (server/domain/webhooks/delivery/claim-deliveries.ts).
CREATE TABLE "webhook_workers" (
	"id" text PRIMARY KEY NOT NULL,
	"seen_at" timestamp with time zone NOT NULL
);
