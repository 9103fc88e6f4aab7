import { and, eq, isNull } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { memberships, packages, users } from "@/server/db/schema";
import type { TActor } from "@/server/domain/access/actor";
import { withEvents } from "@/server/domain/transaction";
import { now } from "@/server/lib/clock";
import { errors } from "@/server/lib/errors";
import { assertCanActOn } from "./assert-can-act-on";
import { auditChange } from "@/server/domain/audit/audit-change";
import { findPackage } from "./find-package";
import { loadPackageView } from "./load-package-view";
import type { TPackage, TPackageRef, TTransferPackage } from "./schemas";

/**
 * A new owner, by user id or email, who must be a (not removed) member of the organisation (400 otherwise).
 * No event (the spec has none for it); the audit trail records the old and new owner. The view is built in
 * the transaction, as the actor may no longer see the package once it is someone else's. Any package but a
 * DRAFT needs canSendPackages (403; assert-can-act-on.ts): a draft may be handed to someone who can send it.
 */
export async function transferPackage(db: Db, actor: TActor, input: TPackageRef & TTransferPackage): Promise<TPackage> {
  return withEvents(db, async (tx) => {
    const pkg = await findPackage(tx, actor, input.packageId, { forUpdate: true });
    assertCanActOn(actor, pkg);
    const who = input.userId ? eq(users.id, input.userId) : eq(users.email, input.email ?? "");
    const [member] = await tx
      .select({ id: users.id, email: users.email })
      .from(users)
      .innerJoin(memberships, eq(memberships.userId, users.id))
      .where(and(who, isNull(users.deletedAt), eq(memberships.organisationId, actor.organisation.id)));
    if (!member) throw errors.badRequest("The new owner must be a member of this organisation");
    const at = now();
    const [moved] = await tx.update(packages).set({ ownerUserId: member.id, updatedAt: at }).where(eq(packages.id, pkg.id)).returning();
    await auditChange(tx, actor, moved!, "package.transferred", { from: pkg.ownerUserId, to: member.id, toEmail: member.email });
    return loadPackageView(tx, moved!);
  });
}
