import { and, asc, eq, gte, sql } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { recipientSessions } from "@/server/db/schema";
import type { TActor } from "@/server/domain/access/actor";
import { withEvents } from "@/server/domain/transaction";
import { now } from "@/server/lib/clock";
import { errors } from "@/server/lib/errors";
import { newId } from "@/server/lib/ids";
import { assertCanActOn } from "./assert-can-act-on";
import { assertCorrectable } from "./assert-correctable";
import { assertRecipientLimit } from "./assert-recipient-limit";
import { auditChange } from "@/server/domain/audit/audit-change";
import { findPackage } from "./find-package";
import { inviteSession } from "./invite-session";
import { loadPackageView } from "./load-package-view";
import { touchPackage } from "./touch-package";
import type { TAddRecipient, TPackage, TPackageRef } from "./schemas";
import { authenticationColumns } from "./recipient-authentication";

/**
 * Correction: a new recipient at `order` (the end when omitted), later ones moving down. In a sent package
 * (IN_PROGRESS or ON_HOLD) a parallel package invites them at once (SESSION_SENT); a sequential one requires
 * a position after every recipient already invited (422 at `order`) and invites them when their turn comes.
 * Beyond a DRAFT, canSendPackages (403; assert-can-act-on.ts).
 */
export async function addRecipient(db: Db, actor: TActor, input: TPackageRef & TAddRecipient): Promise<TPackage> {
  const auth = await authenticationColumns(input.authentication, input.identity);
  return withEvents(db, async (tx) => {
    const pkg = await findPackage(tx, actor, input.packageId, { forUpdate: true });
    assertCanActOn(actor, pkg);
    assertCorrectable(pkg);
    const sessions = await tx.select().from(recipientSessions).where(eq(recipientSessions.packageId, pkg.id)).orderBy(asc(recipientSessions.position));
    await assertRecipientLimit(tx, pkg.organisationId, sessions.length + 1);
    const sent = pkg.status === "IN_PROGRESS" || pkg.status === "ON_HOLD";
    const position = Math.min(input.order ?? sessions.length, sessions.length);
    if (sent && pkg.sequential) {
      const lastReached = Math.max(-1, ...sessions.filter((s) => s.status !== "PENDING").map((s) => s.position));
      if (position <= lastReached) throw errors.validation({ order: [`Must come after the recipients already invited (order ${lastReached + 1} or later)`] });
    }
    const at = now();
    await tx
      .update(recipientSessions)
      .set({ position: sql`${recipientSessions.position} + 1`, updatedAt: at })
      .where(and(eq(recipientSessions.packageId, pkg.id), gte(recipientSessions.position, position)));
    const [session] = await tx
      .insert(recipientSessions)
      .values({ id: newId("ses"), packageId: pkg.id, position, email: input.email, name: input.name ?? null, ...auth, createdAt: at, updatedAt: at })
      .returning();
    if (sent && !pkg.sequential) await inviteSession(tx, pkg, session!, at);
    await auditChange(tx, actor, pkg, "package.recipient_added", {
      sessionId: session!.id,
      email: input.email,
      order: position,
      authentication: session!.authMethod,
      identity: session!.identity !== null,
    });
    return loadPackageView(tx, await touchPackage(tx, pkg, at));
  });
}
