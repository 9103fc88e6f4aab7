CREATE TABLE "package_count_deltas" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "package_count_deltas_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"workspace_id" text NOT NULL,
	"status" text NOT NULL,
	"viewed" boolean NOT NULL,
	"delta" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "package_counts" (
	"workspace_id" text NOT NULL,
	"status" text NOT NULL,
	"viewed" boolean NOT NULL,
	"n" bigint NOT NULL,
	CONSTRAINT "package_counts_workspace_id_status_viewed_pk" PRIMARY KEY("workspace_id","status","viewed")
);
--> statement-breakpoint
DROP INDEX "packages_ws_updated_idx";--> statement-breakpoint
DROP INDEX "packages_ws_status_updated_idx";--> statement-breakpoint
CREATE INDEX "package_count_deltas_ws_idx" ON "package_count_deltas" USING btree ("workspace_id","status");--> statement-breakpoint
CREATE INDEX "packages_ws_owner_updated_idx" ON "packages" USING btree ("workspace_id","owner_user_id","updated_at") WHERE "packages"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "packages_created_by_key_idx" ON "packages" USING btree ("created_by_api_key_id") WHERE "packages"."created_by_api_key_id" is not null;--> statement-breakpoint
CREATE INDEX "packages_title_trgm_idx" ON "packages" USING gin ("title" gin_trgm_ops) WHERE "packages"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "packages_ws_updated_idx" ON "packages" USING btree ("workspace_id","updated_at","id") WHERE "packages"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "packages_ws_status_updated_idx" ON "packages" USING btree ("workspace_id","status","updated_at","id") WHERE "packages"."deleted_at" is null;