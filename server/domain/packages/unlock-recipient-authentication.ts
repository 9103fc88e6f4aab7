import { eq } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { recipientSessions } from "@/server/db/schema";
import type { TActor } from "@/server/domain/access/actor";
import { auditChange } from "@/server/domain/audit/audit-change";
import { withEvents } from "@/server/domain/transaction";
import { now } from "@/server/lib/clock";
import { errors } from "@/server/lib/errors";
import { loadPackageView } from "./load-package-view";
import { lockRecipientCorrection } from "./lock-recipient-correction";
import type { TPackage, TPackageSessionRef } from "./schemas";

/**
 * The sender releases a recipient locked after 5 wrong codes (docs/decisions/signer-authentication.md): the
 * failed attempts start again from 0, the method and code stay. A correction like the others (canSendPackages
 * beyond a DRAFT, a package that has not ended); a recipient that is not locked is 409.
 */
export async function unlockRecipientAuthentication(db: Db, actor: TActor, input: TPackageSessionRef): Promise<TPackage> {
  return withEvents(db, async (tx) => {
    const { pkg, session } = await lockRecipientCorrection(tx, actor, input);
    if (!session.authLockedAt) throw errors.conflict("This recipient is not locked");
    await tx.update(recipientSessions).set({ authFailedAttempts: 0, authLockedAt: null, updatedAt: now() }).where(eq(recipientSessions.id, session.id));
    await auditChange(tx, actor, pkg, "recipient.authentication.unlocked", { sessionId: session.id, email: session.email, method: session.authMethod });
    return loadPackageView(tx, pkg);
  });
}
