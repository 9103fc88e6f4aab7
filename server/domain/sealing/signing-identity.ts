/**
 * The sealing identity of this instance, loaded once per process: the operator's PKCS#12 when configured,
 * otherwise the instance certificate kept in `signing_keys` (created by the first process that needs it).
 */
import { eq } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { signingKeys } from "@/server/db/schema";
import { loadOrCreateSigningIdentity, type TSigningKeyStore } from "@/server/pdf/load-or-create-signing-identity";
import type { TSigningIdentity } from "@/server/pdf/types";

const INSTANCE = "instance";

/** The engine's key store on the database: the first writer wins, everyone reads what is stored. */
export function databaseSigningKeyStore(db: Db): TSigningKeyStore {
  const read = async () => {
    const [row] = await db.select().from(signingKeys).where(eq(signingKeys.id, INSTANCE));
    return row ? { certificate: row.certificate, encryptedPrivateKey: row.encryptedPrivateKey, algorithm: row.algorithm, createdAt: row.createdAt } : null;
  };
  return {
    read,
    async insertIfAbsent(key) {
      await db
        .insert(signingKeys)
        .values({ id: INSTANCE, ...key })
        .onConflictDoNothing({ target: signingKeys.id });
      const stored = await read();
      if (!stored) throw new Error("the signing key could not be stored");
      return stored;
    },
  };
}

let cached: Promise<TSigningIdentity> | undefined;

export function getSigningIdentity(db: Db): Promise<TSigningIdentity> {
  cached ??= loadOrCreateSigningIdentity(databaseSigningKeyStore(db)).catch((err: unknown) => {
    cached = undefined;
    throw err;
  });
  return cached;
}

/** For tests: forget the process's identity (another database, another configuration). */
export function resetSigningIdentity(): void {
  cached = undefined;
}
