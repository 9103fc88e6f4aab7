import { and, eq, isNull } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { packages, recipientSessions } from "@/server/db/schema";
import type { TPackageRow } from "@/server/domain/packages/find-package";
import type { TSessionRow } from "@/server/domain/packages/invite-session";
import { assertCanSign } from "./assert-can-sign";
import { SigningRefusal } from "./signing-refusal";

/**
 * For a step of the signer check (sending an email code, checking a code): the package row locked first, as
 * every recipient transition and correction does (lock-recipient-session.ts), so the session's attempt count
 * and its codes change one request at a time on every replica, then the session read under that lock. Allowed
 * where the view asks for the check: a recipient who can sign now, or who signed a COMPLETED package (their
 * signed copy); otherwise the same refusals as a transition.
 */
export async function lockSignerCheck(tx: Db, sessionId: string): Promise<{ pkg: TPackageRow; session: TSessionRow }> {
  const [ref] = await tx.select({ packageId: recipientSessions.packageId }).from(recipientSessions).where(eq(recipientSessions.id, sessionId));
  if (!ref) throw new SigningRefusal("NOT_FOUND");
  const [pkg] = await tx
    .select()
    .from(packages)
    .where(and(eq(packages.id, ref.packageId), isNull(packages.deletedAt)))
    .for("update");
  if (!pkg) throw new SigningRefusal("NOT_FOUND");
  const [session] = await tx.select().from(recipientSessions).where(eq(recipientSessions.id, sessionId));
  if (!session) throw new SigningRefusal("NOT_FOUND");
  if (!(pkg.status === "COMPLETED" && session.status === "COMPLETED")) assertCanSign(pkg, session);
  return { pkg, session };
}
