import { and, eq, isNull } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { packages, recipientSessions } from "@/server/db/schema";
import type { TPackageRow } from "@/server/domain/packages/find-package";
import type { TSessionRow } from "@/server/domain/packages/invite-session";
import { SigningRefusal } from "./signing-refusal";

/**
 * The session and its package, the package row locked first (every transition, correction and signer check of a
 * package takes that lock, so a hold or void, a signature and a code check apply one after the other), then the
 * session read under that lock. NOT_FOUND when either is gone; no rule about the state.
 */
export async function lockSessionPackage(tx: Db, sessionId: string): Promise<{ pkg: TPackageRow; session: TSessionRow }> {
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
  return { pkg, session };
}

/**
 * For a recipient transition: the session and its package, locked (lockSessionPackage). Refuses, with a typed
 * reason, unless the package is IN_PROGRESS and it is this session's turn (SENT or OPENED).
 */
export async function lockRecipientSession(tx: Db, sessionId: string): Promise<{ pkg: TPackageRow; session: TSessionRow }> {
  const { pkg, session } = await lockSessionPackage(tx, sessionId);
  if (pkg.status === "DRAFT" || pkg.status === "SCHEDULED") throw new SigningRefusal("NOT_SENT");
  if (pkg.status === "ON_HOLD") throw new SigningRefusal("ON_HOLD");
  if (pkg.status !== "IN_PROGRESS") throw new SigningRefusal("ENDED");
  if (session.status === "PENDING") throw new SigningRefusal("NOT_YOUR_TURN");
  if (session.status !== "SENT" && session.status !== "OPENED") throw new SigningRefusal("FINISHED");
  return { pkg, session };
}
