import { and, eq, isNull, sql } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { recipientAuthCodes, recipientSessions } from "@/server/db/schema";
import type { TActor } from "@/server/domain/access/actor";
import { withEvents } from "@/server/domain/transaction";
import { now } from "@/server/lib/clock";
import { errors } from "@/server/lib/errors";
import { auditChange } from "@/server/domain/audit/audit-change";
import { lockRecipientCorrection } from "./lock-recipient-correction";
import { inviteSession } from "./invite-session";
import { loadPackageView } from "./load-package-view";
import { touchPackage } from "./touch-package";
import type { TPackage, TPackageSessionRef, TUpdateRecipient } from "./schemas";
import { authenticationColumns } from "./recipient-authentication";

/**
 * Correction: a recipient's email or name. A recipient already invited (SENT or OPENED) whose email changes is
 * invited again: a new token (the old link stops working), SESSION_SENT again. A finished recipient is 409.
 * Beyond a DRAFT, canSendPackages (403; assert-can-act-on.ts).
 *
 * Signer authentication (docs/decisions/signer-authentication.md): `authentication` given replaces the method
 * and code and clears the failed attempts and the lock (recipient.authentication.unlocked when it was locked);
 * it or a new email bumps `auth_generation`, so every browser that passed must pass again, and retires the
 * unused email codes. `identity` given replaces the asserted identity (null clears it).
 */
export async function updateRecipient(db: Db, actor: TActor, input: TPackageSessionRef & TUpdateRecipient): Promise<TPackage> {
  const { packageId, sessionId } = input;
  const auth = await authenticationColumns(input.authentication, input.identity);
  return withEvents(db, async (tx) => {
    const { pkg, session } = await lockRecipientCorrection(tx, actor, { packageId, sessionId });
    if (session.status === "COMPLETED" || session.status === "DECLINED" || session.status === "CANCELLED") {
      throw errors.conflict("This recipient has already finished and can no longer be changed");
    }
    const at = now();
    const emailChanged = input.email !== undefined && input.email !== session.email;
    const resetAuth = input.authentication !== undefined;
    const [updated] = await tx
      .update(recipientSessions)
      .set({
        email: input.email,
        name: input.name,
        ...auth,
        ...(resetAuth ? { authFailedAttempts: 0, authLockedAt: null } : {}),
        ...(resetAuth || emailChanged ? { authGeneration: sql`${recipientSessions.authGeneration} + 1`, authPassedAt: null } : {}),
        updatedAt: at,
      })
      .where(eq(recipientSessions.id, session.id))
      .returning();
    if (resetAuth || emailChanged) {
      await tx
        .update(recipientAuthCodes)
        .set({ expiresAt: at })
        .where(and(eq(recipientAuthCodes.sessionId, session.id), isNull(recipientAuthCodes.usedAt)));
    }
    const reinvite = input.email !== undefined && input.email !== session.email && (session.status === "SENT" || session.status === "OPENED");
    if (reinvite) await inviteSession(tx, pkg, updated!, at);
    await auditChange(tx, actor, pkg, "package.recipient_updated", {
      sessionId,
      from: session.email,
      to: updated!.email,
      reinvited: reinvite,
      ...(input.authentication ? { authentication: updated!.authMethod } : {}),
      ...(input.identity !== undefined ? { identity: updated!.identity !== null } : {}),
    });
    if (resetAuth && session.authLockedAt) {
      await auditChange(tx, actor, pkg, "recipient.authentication.unlocked", {
        sessionId,
        email: updated!.email,
        method: updated!.authMethod,
        via: "correction",
      });
    }
    return loadPackageView(tx, await touchPackage(tx, pkg, at));
  });
}
