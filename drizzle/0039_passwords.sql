-- Passwords can be changed and reset (docs/decisions/passwords.md): a session carries the credentials version it signed in
-- with and is signed out once the user's is raised; a one-time link is an invitation or an owner's reset.
ALTER TABLE "invites" ADD COLUMN "purpose" text DEFAULT 'invite' NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "credentials_version" integer DEFAULT 0 NOT NULL;