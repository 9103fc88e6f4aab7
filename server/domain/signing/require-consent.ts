import type { TSessionRow } from "@/server/domain/packages/invite-session";
import { errors } from "@/server/lib/errors";

export const CONSENT_REQUIRED_MESSAGE = "Agree to sign electronically before filling in or finishing";

/** Nothing is signed before the recipient agreed to sign electronically (recorded once, with time and address). */
export function requireConsent(session: Pick<TSessionRow, "consentAt">): void {
  if (!session.consentAt) throw errors.conflict(CONSENT_REQUIRED_MESSAGE);
}
