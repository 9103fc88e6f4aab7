import { eq } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { recipientSessions } from "@/server/db/schema";
import type { TActor } from "@/server/domain/access/actor";
import { withEvents } from "@/server/domain/transaction";
import { now } from "@/server/lib/clock";
import { errors } from "@/server/lib/errors";
import { auditChange } from "@/server/domain/audit/audit-change";
import { lockRecipientCorrection } from "./lock-recipient-correction";
import { inviteSession } from "./invite-session";
import { loadPackageView } from "./load-package-view";
import type { TPackage, TPackageSessionRef, TUpdateRecipient } from "./schemas";

/**
 * Correction: a recipient's email or name. A recipient already invited (SENT or OPENED) whose email changes is
 * invited again: a new token (the old link stops working), SESSION_SENT again. A finished recipient is 409.
 * Beyond a DRAFT, canSendPackages (403; assert-can-act-on.ts).
 */
export async function updateRecipient(db: Db, actor: TActor, input: TPackageSessionRef & TUpdateRecipient): Promise<TPackage> {
  const { packageId, sessionId } = input;
  return withEvents(db, async (tx) => {
    const { pkg, session } = await lockRecipientCorrection(tx, actor, { packageId, sessionId });
    if (session.status === "COMPLETED" || session.status === "DECLINED" || session.status === "CANCELLED") {
      throw errors.conflict("This recipient has already finished and can no longer be changed");
    }
    const at = now();
    const [updated] = await tx
      .update(recipientSessions)
      .set({ email: input.email, name: input.name, updatedAt: at })
      .where(eq(recipientSessions.id, session.id))
      .returning();
    const reinvite = input.email !== undefined && input.email !== session.email && (session.status === "SENT" || session.status === "OPENED");
    if (reinvite) await inviteSession(tx, pkg, updated!, at);
    await auditChange(tx, actor, pkg, "package.recipient_updated", { sessionId, from: session.email, to: updated!.email, reinvited: reinvite });
    return loadPackageView(tx, pkg);
  });
}
