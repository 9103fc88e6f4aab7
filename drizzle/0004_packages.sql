CREATE TABLE "idempotency_keys" (
	"id" text PRIMARY KEY NOT NULL,
	"api_key_id" text NOT NULL,
	"key" text NOT NULL,
	"request_hash" text NOT NULL,
	"response_status" integer,
	"response_body" text,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "package_fields" (
	"id" text PRIMARY KEY NOT NULL,
	"package_id" text NOT NULL,
	"document_id" text NOT NULL,
	"session_id" text NOT NULL,
	"type" text NOT NULL,
	"page" integer NOT NULL,
	"x" real NOT NULL,
	"y" real NOT NULL,
	"width" real NOT NULL,
	"height" real NOT NULL,
	"required" boolean DEFAULT true NOT NULL,
	"label" text,
	"merge_field_key" text,
	"value" text,
	"value_storage_key" text,
	"value_kind" text,
	"value_set_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "package_shares" (
	"id" text PRIMARY KEY NOT NULL,
	"package_id" text NOT NULL,
	"user_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "packages" (
	"id" text PRIMARY KEY NOT NULL,
	"organisation_id" text NOT NULL,
	"workspace_id" text NOT NULL,
	"template_id" text,
	"title" text NOT NULL,
	"status" text DEFAULT 'DRAFT' NOT NULL,
	"external_id" text,
	"metadata" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"owner_user_id" text NOT NULL,
	"created_by_api_key_id" text,
	"sequential" boolean DEFAULT true NOT NULL,
	"message" text,
	"merge_values" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"questions" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"answers" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"reminders" jsonb,
	"send_at" timestamp with time zone,
	"schedule_error" text,
	"expires_at" timestamp with time zone,
	"expired_at" timestamp with time zone,
	"sent_at" timestamp with time zone,
	"hold_started_at" timestamp with time zone,
	"first_viewed_at" timestamp with time zone,
	"completed_at" timestamp with time zone,
	"declined_at" timestamp with time zone,
	"voided_at" timestamp with time zone,
	"void_reason" text,
	"deleted_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "recipient_sessions" (
	"id" text PRIMARY KEY NOT NULL,
	"package_id" text NOT NULL,
	"position" integer NOT NULL,
	"role_index" integer,
	"role_name" text,
	"email" text,
	"name" text,
	"signing_group_id" text,
	"status" text DEFAULT 'PENDING' NOT NULL,
	"token_hash" text,
	"token_expires_at" timestamp with time zone,
	"sent_at" timestamp with time zone,
	"opened_at" timestamp with time zone,
	"completed_at" timestamp with time zone,
	"declined_at" timestamp with time zone,
	"decline_reason" text,
	"consent_at" timestamp with time zone,
	"client_address" text,
	"user_agent" text,
	"reminders_sent" integer DEFAULT 0 NOT NULL,
	"next_reminder_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "audit_events" ADD COLUMN "client_address" text;--> statement-breakpoint
ALTER TABLE "audit_events" ADD COLUMN "previous_hash" text;--> statement-breakpoint
ALTER TABLE "audit_events" ADD COLUMN "hash" text;--> statement-breakpoint
ALTER TABLE "idempotency_keys" ADD CONSTRAINT "idempotency_keys_api_key_id_api_keys_id_fk" FOREIGN KEY ("api_key_id") REFERENCES "public"."api_keys"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "package_fields" ADD CONSTRAINT "package_fields_package_id_packages_id_fk" FOREIGN KEY ("package_id") REFERENCES "public"."packages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "package_fields" ADD CONSTRAINT "package_fields_session_id_recipient_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."recipient_sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "package_shares" ADD CONSTRAINT "package_shares_package_id_packages_id_fk" FOREIGN KEY ("package_id") REFERENCES "public"."packages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "package_shares" ADD CONSTRAINT "package_shares_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "packages" ADD CONSTRAINT "packages_organisation_id_organisations_id_fk" FOREIGN KEY ("organisation_id") REFERENCES "public"."organisations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "packages" ADD CONSTRAINT "packages_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "packages" ADD CONSTRAINT "packages_template_id_templates_id_fk" FOREIGN KEY ("template_id") REFERENCES "public"."templates"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "packages" ADD CONSTRAINT "packages_owner_user_id_users_id_fk" FOREIGN KEY ("owner_user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "packages" ADD CONSTRAINT "packages_created_by_api_key_id_api_keys_id_fk" FOREIGN KEY ("created_by_api_key_id") REFERENCES "public"."api_keys"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "recipient_sessions" ADD CONSTRAINT "recipient_sessions_package_id_packages_id_fk" FOREIGN KEY ("package_id") REFERENCES "public"."packages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "recipient_sessions" ADD CONSTRAINT "recipient_sessions_signing_group_id_signing_groups_id_fk" FOREIGN KEY ("signing_group_id") REFERENCES "public"."signing_groups"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "idempotency_keys_uq" ON "idempotency_keys" USING btree ("api_key_id","key");--> statement-breakpoint
CREATE INDEX "idempotency_keys_expiry_idx" ON "idempotency_keys" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "package_fields_package_idx" ON "package_fields" USING btree ("package_id");--> statement-breakpoint
CREATE INDEX "package_fields_session_idx" ON "package_fields" USING btree ("session_id");--> statement-breakpoint
CREATE UNIQUE INDEX "package_shares_uq" ON "package_shares" USING btree ("package_id","user_id");--> statement-breakpoint
CREATE INDEX "package_shares_user_idx" ON "package_shares" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "packages_ws_updated_idx" ON "packages" USING btree ("workspace_id","updated_at","id");--> statement-breakpoint
CREATE INDEX "packages_ws_status_updated_idx" ON "packages" USING btree ("workspace_id","status","updated_at","id");--> statement-breakpoint
CREATE UNIQUE INDEX "packages_ws_external_id_uq" ON "packages" USING btree ("workspace_id","external_id") WHERE "packages"."external_id" is not null;--> statement-breakpoint
CREATE INDEX "packages_due_send_idx" ON "packages" USING btree ("send_at") WHERE "packages"."status" = 'SCHEDULED';--> statement-breakpoint
CREATE INDEX "packages_due_expiry_idx" ON "packages" USING btree ("expires_at") WHERE "packages"."status" in ('IN_PROGRESS', 'ON_HOLD') and "packages"."expires_at" is not null;--> statement-breakpoint
CREATE INDEX "recipient_sessions_package_idx" ON "recipient_sessions" USING btree ("package_id","position");--> statement-breakpoint
CREATE UNIQUE INDEX "recipient_sessions_token_uq" ON "recipient_sessions" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "recipient_sessions_due_reminder_idx" ON "recipient_sessions" USING btree ("next_reminder_at") WHERE "recipient_sessions"."next_reminder_at" is not null;