import { and, asc, eq, isNotNull } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { packages, recipientSessions } from "@/server/db/schema";
import { queuePackageMail } from "@/server/domain/mail/queue-package-mail";
import { withEvents } from "@/server/domain/transaction";
import { now } from "@/server/lib/clock";
import { errors } from "@/server/lib/errors";
import { actorLabel } from "./actor-label";
import { auditChange } from "@/server/domain/audit/audit-change";
import { cancelOpenSessions } from "./cancel-open-sessions";
import { findPackage } from "./find-package";
import { forgetSigningTokens } from "./forget-signing-tokens";
import { loadMailPackage } from "./load-mail-package";
import { loadPackageView } from "./load-package-view";
import type { TPackageActor } from "./package-actor";
import { recordPackageEvent } from "./record-package-event";
import type { TPackage, TPackageRef, TVoidPackage } from "./schemas";

/**
 * A sent package that has not ended → VOID: PACKAGE_VOIDED, then SESSION_CANCELLED for every open session, and the
 * voided notice to every recipient who was invited.
 * 400 for a package never sent (DRAFT, SCHEDULED: delete it instead); 409 once ended.
 */
export async function voidPackage(db: Db, actor: TPackageActor, input: TPackageRef & TVoidPackage): Promise<TPackage> {
  return withEvents(db, async (tx) => {
    const pkg = await findPackage(tx, actor, input.packageId, { forUpdate: true });
    if (pkg.status === "DRAFT" || pkg.status === "SCHEDULED")
      throw errors.badRequest("Only a sent package can be voided; delete a draft or scheduled package instead");
    if (pkg.status !== "IN_PROGRESS" && pkg.status !== "ON_HOLD") throw errors.conflict("The package has already ended");
    const at = now();
    const [voided] = await tx
      .update(packages)
      .set({ status: "VOID", voidedAt: at, voidReason: input.reason ?? null, holdStartedAt: null, updatedAt: at })
      .where(eq(packages.id, pkg.id))
      .returning();
    await recordPackageEvent(tx, voided!, "PACKAGE_VOIDED", { voidedBy: actorLabel(actor) });
    // The notice goes to everyone who was invited (a recipient whose turn never came knew nothing of it).
    const invited = await tx
      .select()
      .from(recipientSessions)
      .where(and(eq(recipientSessions.packageId, pkg.id), isNotNull(recipientSessions.sentAt)))
      .orderBy(asc(recipientSessions.position));
    await queuePackageMail(tx, {
      kind: "VOIDED",
      pkg: await loadMailPackage(tx, voided!),
      reason: input.reason ?? null,
      recipients: invited.map((s) => ({ sessionId: s.id, email: s.email, name: s.name })),
    });
    await cancelOpenSessions(tx, voided!, at);
    await forgetSigningTokens(tx, pkg.id);
    await auditChange(tx, actor, voided!, "package.voided", { reason: input.reason ?? null });
    return loadPackageView(tx, voided!);
  });
}
