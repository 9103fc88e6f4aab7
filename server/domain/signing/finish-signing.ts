import { and, eq, inArray, isNull } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { packageFields, recipientSessions } from "@/server/db/schema";
import { completeLockedSession } from "./complete-session";
import type { TSessionRow } from "@/server/domain/packages/invite-session";
import { lockRecipientSession } from "./lock-recipient-session";
import { SigningRefusal } from "./signing-refusal";
import { withEvents } from "@/server/domain/transaction";
import { now } from "@/server/lib/clock";
import { closedReason } from "./closed-reason";
import { findSigningSession } from "./find-signing-session";
import { getSigningView } from "./get-signing-view";
import { requireConsent } from "./require-consent";
import type { TSigningRequest, TSigningTimeZoneQuery, TSigningView } from "./schemas";

/**
 * The recipient finishes, in ONE transaction on the session it locks: the date signed (server's date, UTC) and
 * any empty name/email field are filled in, the browser's time zone, when sent, is kept on the session (the
 * latest one reported wins) for the certificate, and completeLockedSession enforces every required field and
 * moves the package on. A refusal (a required field missing) rolls all of it back. The answer is read in the
 * same transaction. A double submit completes once: the second finds the session finished and answers the
 * same end page as the first.
 */
export async function finishSigning(db: Db, request: TSigningRequest, input: TSigningTimeZoneQuery = {}): Promise<TSigningView> {
  const { pkg, session, recipient } = await findSigningSession(db, request);
  const reason = closedReason(pkg, session);
  if (reason === "FINISHED" || reason === "COMPLETED") return getSigningView(db, request);
  try {
    return await withEvents(db, async (tx) => {
      const locked = await lockRecipientSession(tx, session.id);
      requireConsent(locked.session);
      await fillInOnFinish(tx, locked.session, input.timeZone, now());
      await completeLockedSession(tx, recipient, locked);
      return getSigningView(tx, request);
    });
  } catch (err) {
    // The other submit of a double click won the race: this one answers its end page too.
    if (!(err instanceof SigningRefusal && err.reason === "FINISHED")) throw err;
  }
  return getSigningView(db, request);
}

/** What finishing fills in for the recipient, in the finishing transaction: time zone, date, empty name/email. */
async function fillInOnFinish(tx: Db, session: TSessionRow, timeZone: string | undefined, at: Date): Promise<void> {
  if (timeZone && timeZone !== session.timeZone) {
    await tx.update(recipientSessions).set({ timeZone, updatedAt: at }).where(eq(recipientSessions.id, session.id));
  }
  const mine = eq(packageFields.sessionId, session.id);
  await tx
    .update(packageFields)
    .set({ value: at.toISOString().slice(0, 10), valueKind: "text", valueSetAt: at })
    .where(and(mine, eq(packageFields.type, "date")));
  const prefill = [
    ["name", session.name],
    ["email", session.email],
  ] as const;
  for (const [type, value] of prefill) {
    if (!value) continue;
    await tx
      .update(packageFields)
      .set({ value, valueKind: "text", valueSetAt: at })
      .where(and(mine, inArray(packageFields.type, [type]), isNull(packageFields.value)));
  }
}
