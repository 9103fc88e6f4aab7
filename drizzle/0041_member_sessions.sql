-- A member's signed-in sessions, listed on the Account page and ended one by one (server/domain/member-sessions/): a session
-- whose row is gone is over at its next request. Sessions signed in before this migration have no row and end.
CREATE TABLE "member_sessions" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"organisation_id" text NOT NULL,
	"client_address" text,
	"user_agent" text,
	"signed_in_at" timestamp with time zone NOT NULL,
	"last_seen_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "member_sessions" ADD CONSTRAINT "member_sessions_membership_fk" FOREIGN KEY ("organisation_id","user_id") REFERENCES "public"."memberships"("organisation_id","user_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "member_sessions_membership_idx" ON "member_sessions" USING btree ("organisation_id","user_id");--> statement-breakpoint
CREATE INDEX "member_sessions_user_idx" ON "member_sessions" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "member_sessions_last_seen_at_idx" ON "member_sessions" USING btree ("last_seen_at");