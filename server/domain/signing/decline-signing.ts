import type { Db } from "@/server/db/client";
import { declineSession } from "./decline-session";
import { SigningRefusal } from "./signing-refusal";
import { closedReason } from "./closed-reason";
import { findSigningSession } from "./find-signing-session";
import { getSigningView } from "./get-signing-view";
import type { TSigningRequest, TSigningView } from "./schemas";

/**
 * The recipient declines with a reason: SESSION_DECLINED, PACKAGE_DECLINED and the other sessions cancelled
 * (declineSession). Declining twice answers the declined page again. Consent is not needed to decline.
 */
export async function declineSigning(db: Db, request: TSigningRequest, input: { reason: string }): Promise<TSigningView> {
  const { pkg, session, recipient } = await findSigningSession(db, request);
  if (closedReason(pkg, session) === "DECLINED") return getSigningView(db, request);
  try {
    await declineSession(db, recipient, { reason: input.reason });
  } catch (err) {
    // A double submit: the first decline ended the package, so this one reads the declined page.
    const view = err instanceof SigningRefusal ? await getSigningView(db, request) : null;
    if (view?.state === "CLOSED" && view.reason === "DECLINED") return view;
    throw err;
  }
  return getSigningView(db, request);
}
