CREATE TABLE "signing_keys" (
	"id" text PRIMARY KEY NOT NULL,
	"certificate" text NOT NULL,
	"encrypted_private_key" text NOT NULL,
	"algorithm" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
