import { and, eq } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { recipientSessions } from "@/server/db/schema";
import type { TActor } from "@/server/domain/access/actor";
import { errors } from "@/server/lib/errors";
import { assertCanActOn } from "./assert-can-act-on";
import { assertCorrectable } from "./assert-correctable";
import { findPackage } from "./find-package";
import type { TPackageSessionRef } from "./schemas";

/**
 * The start of a correction to one recipient (change, remove), inside the caller's transaction: the package
 * locked (404 for what the actor cannot see), canSendPackages beyond a DRAFT (403), the session of that package
 * (404), and a package that can still be corrected (409, assert-correctable.ts) — in that order.
 */
export async function lockRecipientCorrection(tx: Db, actor: TActor, ref: TPackageSessionRef) {
  const pkg = await findPackage(tx, actor, ref.packageId, { forUpdate: true });
  assertCanActOn(actor, pkg);
  const [session] = await tx
    .select()
    .from(recipientSessions)
    .where(and(eq(recipientSessions.id, ref.sessionId), eq(recipientSessions.packageId, pkg.id)));
  if (!session) throw errors.notFound("Recipient session");
  assertCorrectable(pkg);
  return { pkg, session };
}
