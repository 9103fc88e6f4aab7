CREATE TABLE "package_evidence" (
	"package_id" text PRIMARY KEY NOT NULL,
	"organisation_id" text NOT NULL,
	"workspace_id" text NOT NULL,
	"level" text NOT NULL,
	"timestamped_at" timestamp with time zone,
	"timestamp_authority" text,
	"tsa_certificate_not_after" timestamp with time zone,
	"upgrade_next_attempt_at" timestamp with time zone,
	"upgrade_attempts" integer DEFAULT 0 NOT NULL,
	"renew_not_before" timestamp with time zone,
	"renew_attempts" integer DEFAULT 0 NOT NULL,
	"last_error" text,
	"claim_token" text,
	"claimed_until" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sealed_file_versions" (
	"id" text PRIMARY KEY NOT NULL,
	"organisation_id" text NOT NULL,
	"workspace_id" text NOT NULL,
	"sealed_file_id" text NOT NULL,
	"package_id" text NOT NULL,
	"version" integer NOT NULL,
	"sha256" text NOT NULL,
	"size" integer NOT NULL,
	"evidence_level" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "sealed_files" ADD COLUMN "version" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "sealed_files" ADD COLUMN "evidence_level" text DEFAULT 'B-B' NOT NULL;--> statement-breakpoint
ALTER TABLE "sealed_files" ADD COLUMN "timestamped_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "sealed_files" ADD COLUMN "timestamp_authority" text;--> statement-breakpoint
ALTER TABLE "sealed_files" ADD COLUMN "tsa_certificate_not_after" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "package_evidence" ADD CONSTRAINT "package_evidence_package_id_packages_id_fk" FOREIGN KEY ("package_id") REFERENCES "public"."packages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "package_evidence" ADD CONSTRAINT "package_evidence_organisation_id_organisations_id_fk" FOREIGN KEY ("organisation_id") REFERENCES "public"."organisations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "package_evidence" ADD CONSTRAINT "package_evidence_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sealed_file_versions" ADD CONSTRAINT "sealed_file_versions_organisation_id_organisations_id_fk" FOREIGN KEY ("organisation_id") REFERENCES "public"."organisations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sealed_file_versions" ADD CONSTRAINT "sealed_file_versions_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sealed_file_versions" ADD CONSTRAINT "sealed_file_versions_sealed_file_id_sealed_files_id_fk" FOREIGN KEY ("sealed_file_id") REFERENCES "public"."sealed_files"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sealed_file_versions" ADD CONSTRAINT "sealed_file_versions_package_id_packages_id_fk" FOREIGN KEY ("package_id") REFERENCES "public"."packages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "package_evidence_upgrade_idx" ON "package_evidence" USING btree ("upgrade_next_attempt_at");--> statement-breakpoint
CREATE INDEX "package_evidence_renewal_idx" ON "package_evidence" USING btree ("tsa_certificate_not_after");--> statement-breakpoint
CREATE INDEX "sealed_file_versions_sha256_idx" ON "sealed_file_versions" USING btree ("sha256");--> statement-breakpoint
CREATE UNIQUE INDEX "sealed_file_versions_file_version_uq" ON "sealed_file_versions" USING btree ("sealed_file_id","version");