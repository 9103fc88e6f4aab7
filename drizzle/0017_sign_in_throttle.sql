CREATE TABLE "sign_in_failures" (
	"id" text PRIMARY KEY NOT NULL,
	"email" text NOT NULL,
	"client_address" text,
	"failed_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sign_in_known_addresses" (
	"id" text PRIMARY KEY NOT NULL,
	"email" text NOT NULL,
	"client_address" text NOT NULL,
	"signed_in_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE INDEX "sign_in_failures_email_idx" ON "sign_in_failures" USING btree ("email","failed_at");--> statement-breakpoint
CREATE INDEX "sign_in_failures_address_idx" ON "sign_in_failures" USING btree ("client_address","failed_at");--> statement-breakpoint
CREATE INDEX "sign_in_failures_failed_at_idx" ON "sign_in_failures" USING btree ("failed_at");--> statement-breakpoint
CREATE UNIQUE INDEX "sign_in_known_addresses_uq" ON "sign_in_known_addresses" USING btree ("email","client_address");--> statement-breakpoint
CREATE INDEX "sign_in_known_addresses_signed_in_at_idx" ON "sign_in_known_addresses" USING btree ("signed_in_at");