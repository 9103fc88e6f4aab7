-- The backups `npm run admin -- backup` made of an embedded installation, for the Readiness page (server/cli/backup.ts).
CREATE TABLE "backups" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "backups_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"made_at" timestamp with time zone NOT NULL,
	"file" text NOT NULL,
	"bytes" bigint NOT NULL,
	"with_secrets" boolean NOT NULL
);
