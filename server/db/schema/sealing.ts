import { pgTable, text } from "drizzle-orm/pg-core";
import { createdAt } from "./columns";

/**
 * This instance's sealing identity when no operator PKCS#12 is configured: one row (`id = 'instance'`), the
 * certificate and its private key encrypted under ENCRYPTION_KEY. The first process to start writes it; every
 * other process (replicas, workers) reads the same one. Earlier certificates stay (a rotated identity must still
 * verify what it sealed): only the row named `instance` is current.
 */
export const signingKeys = pgTable("signing_keys", {
  id: text("id").primaryKey(),
  certificate: text("certificate").notNull(),
  encryptedPrivateKey: text("encrypted_private_key").notNull(),
  algorithm: text("algorithm").$type<"ECDSA-P256-SHA256">().notNull(),
  createdAt: createdAt(),
});

export type TSigningKeyRow = typeof signingKeys.$inferSelect;
