/**
 * The sealing identity of this instance, loaded once per process: the operator's PKCS#12 when configured,
 * otherwise the instance certificate kept in `signing_keys` (created by the first process that needs it).
 * Test workspaces seal with a separate identity (`signing_keys` row `test`, never the operator's PKCS#12), whose
 * certificate names it a test seal; /verify recognises it and says so (docs/decisions/test-mode.md).
 */
import { eq } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { signingKeys } from "@/server/db/schema";
import { loadOrCreateSigningIdentity, type TSigningKeyStore } from "@/server/pdf/load-or-create-signing-identity";
import type { TSigningIdentity } from "@/server/pdf/types";
import { env } from "@/server/env";

const INSTANCE = "instance";
/** The test identity's row in `signing_keys`; every other row is a live identity, current or past. */
export const TEST_IDENTITY = "test";

/** The engine's key store on the database: the first writer wins, everyone reads what is stored. */
function databaseSigningKeyStore(db: Db, id = INSTANCE): TSigningKeyStore {
  const read = async () => {
    const [row] = await db.select().from(signingKeys).where(eq(signingKeys.id, id));
    return row ? { certificate: row.certificate, encryptedPrivateKey: row.encryptedPrivateKey, algorithm: row.algorithm, createdAt: row.createdAt } : null;
  };
  return {
    read,
    async insertIfAbsent(key) {
      await db
        .insert(signingKeys)
        .values({ id, ...key })
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

let cachedTest: Promise<TSigningIdentity> | undefined;

/** The test workspaces' identity: this instance's own test certificate, made on first use. */
export function getTestSigningIdentity(db: Db): Promise<TSigningIdentity> {
  const host = new URL(env().publicUrl).hostname || "localhost";
  cachedTest ??= loadOrCreateSigningIdentity(databaseSigningKeyStore(db, TEST_IDENTITY), {
    instanceOnly: true,
    commonName: `Foliosign TEST seal (not a valid signature) – ${host}`,
  }).catch((err: unknown) => {
    cachedTest = undefined;
    throw err;
  });
  return cachedTest;
}

/** For tests: forget the process's identities (another database, another configuration). */
export function resetSigningIdentity(): void {
  cached = undefined;
  cachedTest = undefined;
}
