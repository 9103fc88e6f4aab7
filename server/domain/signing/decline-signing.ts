import type { Db } from "@/server/db/client";
import { withEvents } from "@/server/domain/transaction";
import { declineLockedSession } from "./decline-session";
import { lockRecipientSession } from "./lock-recipient-session";
import { SigningRefusal } from "./signing-refusal";
import { closedReason } from "./closed-reason";
import { findSigningSession } from "./find-signing-session";
import { getSigningView } from "./get-signing-view";
import type { TSigningRequest, TSigningView } from "./schemas";

/**
 * The recipient declines with a reason: SESSION_DECLINED, PACKAGE_DECLINED and the other sessions cancelled
 * (declineLockedSession), in one transaction that also reads the answer. Declining twice answers the declined
 * page again. Consent is not needed to decline.
 */
export async function declineSigning(db: Db, request: TSigningRequest, input: { reason: string }): Promise<TSigningView> {
  const { pkg, session, recipient } = await findSigningSession(db, request);
  if (closedReason(pkg, session) === "DECLINED") return getSigningView(db, request);
  try {
    // One transaction: the session locked once, declined, and the answer read from the same rows.
    return await withEvents(db, async (tx) => {
      await declineLockedSession(tx, recipient, await lockRecipientSession(tx, session.id), { reason: input.reason });
      return getSigningView(tx, request);
    });
  } catch (err) {
    // A double submit: the first decline ended the package, so this one reads the declined page.
    const view = err instanceof SigningRefusal ? await getSigningView(db, request) : null;
    if (view?.state === "CLOSED" && view.reason === "DECLINED") return view;
    throw err;
  }
}
