ALTER TABLE "workspaces" ADD COLUMN "is_test" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "mail_messages" ADD COLUMN "test" boolean DEFAULT false NOT NULL;