-- Indexes for the foreign keys whose parents the app deletes (server/db/foreign-key-indexes.test.ts): PostgreSQL
-- does not index a key's referencing column, and without an index each deleted parent row makes the key's ON DELETE
-- read the whole child table — every package ever made when a template is deleted (its packages' template set to
-- null), every message ever sent when a recipient is removed (its session's mail), every session when a signing
-- group is deleted, every template's fields when a template role is deleted.
CREATE INDEX "template_fields_role_idx" ON "template_fields" USING btree ("role_id");--> statement-breakpoint
CREATE INDEX "packages_template_idx" ON "packages" USING btree ("template_id") WHERE "packages"."template_id" is not null;--> statement-breakpoint
CREATE INDEX "recipient_sessions_signing_group_idx" ON "recipient_sessions" USING btree ("signing_group_id") WHERE "recipient_sessions"."signing_group_id" is not null;--> statement-breakpoint
CREATE INDEX "mail_messages_session_idx" ON "mail_messages" USING btree ("session_id") WHERE "mail_messages"."session_id" is not null;