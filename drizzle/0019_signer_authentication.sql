CREATE TABLE "recipient_auth_codes" (
	"id" text PRIMARY KEY NOT NULL,
	"session_id" text NOT NULL,
	"code_hash" text NOT NULL,
	"sent_to" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "template_roles" ADD COLUMN "auth_method" text DEFAULT 'NONE' NOT NULL;--> statement-breakpoint
ALTER TABLE "recipient_sessions" ADD COLUMN "auth_method" text DEFAULT 'NONE' NOT NULL;--> statement-breakpoint
ALTER TABLE "recipient_sessions" ADD COLUMN "access_code_hash" text;--> statement-breakpoint
ALTER TABLE "recipient_sessions" ADD COLUMN "auth_failed_attempts" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "recipient_sessions" ADD COLUMN "auth_locked_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "recipient_sessions" ADD COLUMN "auth_generation" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "recipient_sessions" ADD COLUMN "auth_passed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "recipient_sessions" ADD COLUMN "identity" jsonb;--> statement-breakpoint
ALTER TABLE "recipient_auth_codes" ADD CONSTRAINT "recipient_auth_codes_session_id_recipient_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."recipient_sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "recipient_auth_codes_session_idx" ON "recipient_auth_codes" USING btree ("session_id","created_at");