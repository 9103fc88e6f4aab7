import type { Db } from "@/server/db/client";
import { auditChange } from "@/server/domain/audit/audit-change";
import { describeDevice } from "./describe-device";
import { keptUserAgent } from "./limits";
import type { TSessionOrigin } from "./start-member-session";

/**
 * A wrong password given for a member's address: a `member.sign_in_failed` event about the member, attributed to
 * nobody but the address the attempt came from, with the device its User-Agent names — so the owner sees guessing
 * on Activity and the member on their Account page. Only attempts the throttle let through get here
 * (authorize-credentials.ts), so a guesser can write at most as many events as it may try passwords; an address
 * that is no member's, a member without a password yet and a refused (throttled) attempt record nothing.
 */
export async function recordFailedSignIn(db: Db, user: { id: string }, organisationId: string, origin: TSessionOrigin): Promise<void> {
  const userAgent = keptUserAgent(origin.userAgent);
  await auditChange(db, { kind: "unknown", clientAddress: origin.clientAddress }, { id: user.id, organisationId, workspaceId: null }, "member.sign_in_failed", {
    device: describeDevice(userAgent),
  });
}
