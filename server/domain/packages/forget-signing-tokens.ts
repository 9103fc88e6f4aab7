import { and, eq, isNotNull } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { recipientSessions } from "@/server/db/schema";

/**
 * A package ended (completed, declined, voided, expired): its last messages are queued, so the encrypted copies
 * of its signing tokens are no longer needed and are dropped. The hashes stay, so the links keep opening the
 * end page (and, once completed, the recipient's download of the signed copy).
 */
export async function forgetSigningTokens(tx: Db, packageId: string): Promise<void> {
  await tx
    .update(recipientSessions)
    .set({ tokenCiphertext: null })
    .where(and(eq(recipientSessions.packageId, packageId), isNotNull(recipientSessions.tokenCiphertext)));
}
