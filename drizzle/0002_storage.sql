CREATE TABLE "stored_file_chunks" (
	"blob_id" text NOT NULL,
	"index" integer NOT NULL,
	"data" "bytea" NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "stored_file_chunks_blob_id_index_pk" PRIMARY KEY("blob_id","index")
);
--> statement-breakpoint
CREATE TABLE "stored_files" (
	"key" text PRIMARY KEY NOT NULL,
	"blob_id" text NOT NULL,
	"size" bigint NOT NULL,
	"sha256" text NOT NULL,
	"content_type" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "stored_file_chunks_created_idx" ON "stored_file_chunks" USING btree ("created_at");