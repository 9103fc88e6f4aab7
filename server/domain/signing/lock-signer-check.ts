import type { Db } from "@/server/db/client";
import type { TPackageRow } from "@/server/domain/packages/find-package";
import type { TSessionRow } from "@/server/domain/packages/invite-session";
import { assertCanSign } from "./assert-can-sign";
import { lockSessionPackage } from "./lock-recipient-session";

/**
 * For a step of the signer check (sending an email code, checking a code): the package row locked first, as
 * every recipient transition and correction does (lockSessionPackage), so the session's attempt count and its
 * codes change one request at a time on every replica. Allowed where the view asks for the check: a recipient
 * who can sign now, or who signed a COMPLETED package (their signed copy); otherwise the same refusals as a
 * transition.
 */
export async function lockSignerCheck(tx: Db, sessionId: string): Promise<{ pkg: TPackageRow; session: TSessionRow }> {
  const { pkg, session } = await lockSessionPackage(tx, sessionId);
  if (!(pkg.status === "COMPLETED" && session.status === "COMPLETED")) assertCanSign(pkg, session);
  return { pkg, session };
}
