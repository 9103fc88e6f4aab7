import { and, eq, inArray, isNull } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { packageFields, recipientSessions } from "@/server/db/schema";
import { completeSession } from "@/server/domain/packages/complete-session";
import { lockRecipientSession } from "@/server/domain/packages/lock-recipient-session";
import { SigningRefusal } from "@/server/domain/packages/signing-refusal";
import { now } from "@/server/lib/clock";
import { closedReason } from "./closed-reason";
import { findSigningSession } from "./find-signing-session";
import { getSigningView } from "./get-signing-view";
import { requireConsent } from "./require-consent";
import type { TSigningRequest, TSigningTimeZoneQuery, TSigningView } from "./schemas";

/**
 * The recipient finishes: the date signed (server's date, UTC) and any empty name/email field are filled in,
 * then completeSession enforces every required field and moves the package on. A double submit completes
 * once: the second finds the session finished and answers the same end page as the first. The browser's time
 * zone, when sent, is kept on the session (the latest one reported wins) for the certificate.
 */
export async function finishSigning(db: Db, request: TSigningRequest, input: TSigningTimeZoneQuery = {}): Promise<TSigningView> {
  const { pkg, session, recipient } = await findSigningSession(db, request);
  const reason = closedReason(pkg, session);
  if (reason === "FINISHED" || reason === "COMPLETED") return getSigningView(db, request);
  try {
    await db.transaction(async (tx) => {
      const { session: locked } = await lockRecipientSession(tx, session.id);
      requireConsent(locked);
      const at = now();
      if (input.timeZone && input.timeZone !== locked.timeZone) {
        await tx.update(recipientSessions).set({ timeZone: input.timeZone, updatedAt: at }).where(eq(recipientSessions.id, locked.id));
      }
      const mine = eq(packageFields.sessionId, locked.id);
      await tx.update(packageFields).set({ value: at.toISOString().slice(0, 10), valueKind: "text", valueSetAt: at }).where(and(mine, eq(packageFields.type, "date")));
      const prefill = [
        ["name", locked.name],
        ["email", locked.email],
      ] as const;
      for (const [type, value] of prefill) {
        if (!value) continue;
        await tx
          .update(packageFields)
          .set({ value, valueKind: "text", valueSetAt: at })
          .where(and(mine, inArray(packageFields.type, [type]), isNull(packageFields.value)));
      }
    });
    await completeSession(db, recipient);
  } catch (err) {
    // The other submit of a double click won the race (at either step): this one answers its end page too.
    if (!(err instanceof SigningRefusal && err.reason === "FINISHED")) throw err;
  }
  return getSigningView(db, request);
}
