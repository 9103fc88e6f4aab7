CREATE TABLE "sealed_files" (
	"id" text PRIMARY KEY NOT NULL,
	"organisation_id" text NOT NULL,
	"workspace_id" text NOT NULL,
	"package_id" text NOT NULL,
	"kind" text NOT NULL,
	"document_id" text,
	"name" text NOT NULL,
	"position" integer DEFAULT 0 NOT NULL,
	"storage_key" text NOT NULL,
	"sha256" text NOT NULL,
	"size" integer NOT NULL,
	"pages" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "packages" ADD COLUMN "seal_requested_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "packages" ADD COLUMN "seal_attempts" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "packages" ADD COLUMN "seal_next_attempt_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "packages" ADD COLUMN "seal_last_error" text;--> statement-breakpoint
ALTER TABLE "packages" ADD COLUMN "seal_claim_token" text;--> statement-breakpoint
ALTER TABLE "sealed_files" ADD CONSTRAINT "sealed_files_organisation_id_organisations_id_fk" FOREIGN KEY ("organisation_id") REFERENCES "public"."organisations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sealed_files" ADD CONSTRAINT "sealed_files_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sealed_files" ADD CONSTRAINT "sealed_files_package_id_packages_id_fk" FOREIGN KEY ("package_id") REFERENCES "public"."packages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "sealed_files_package_idx" ON "sealed_files" USING btree ("package_id","kind","position");--> statement-breakpoint
CREATE INDEX "sealed_files_sha256_idx" ON "sealed_files" USING btree ("sha256");--> statement-breakpoint
CREATE UNIQUE INDEX "sealed_files_storage_key_uq" ON "sealed_files" USING btree ("storage_key");--> statement-breakpoint
CREATE INDEX "packages_due_seal_idx" ON "packages" USING btree ("seal_next_attempt_at") WHERE "packages"."status" = 'IN_PROGRESS' and "packages"."seal_requested_at" is not null;