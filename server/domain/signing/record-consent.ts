import { eq } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { recipientSessions } from "@/server/db/schema";
import { auditChange } from "@/server/domain/audit/audit-change";
import { lockRecipientSession } from "./lock-recipient-session";
import { now } from "@/server/lib/clock";
import { findSigningSession } from "./find-signing-session";
import type { TSigningRequest, TSigningTimeZoneQuery } from "./schemas";

/**
 * The recipient agrees to sign electronically: recorded once (time, client address, user agent, and the
 * browser's time zone when sent) on the session and in the audit trail; agreeing again keeps the first record.
 */
export async function recordConsent(db: Db, request: TSigningRequest, input: TSigningTimeZoneQuery = {}): Promise<{ consentAt: string }> {
  const { session, recipient } = await findSigningSession(db, request);
  return db.transaction(async (tx) => {
    const { pkg, session: locked } = await lockRecipientSession(tx, session.id);
    if (locked.consentAt) return { consentAt: locked.consentAt.toISOString() };
    const at = now();
    await tx
      .update(recipientSessions)
      .set({
        consentAt: at,
        clientAddress: recipient.clientAddress,
        userAgent: recipient.userAgent,
        timeZone: input.timeZone ?? locked.timeZone,
        updatedAt: at,
      })
      .where(eq(recipientSessions.id, locked.id));
    await auditChange(tx, recipient, pkg, "session.consented", {
      email: locked.email,
      userAgent: recipient.userAgent,
      ...(input.timeZone ? { timeZone: input.timeZone } : {}),
    });
    return { consentAt: at.toISOString() };
  });
}
