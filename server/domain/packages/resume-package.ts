import { and, eq, inArray, isNotNull, sql } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { packages, recipientSessions } from "@/server/db/schema";
import { withEvents } from "@/server/domain/transaction";
import { now } from "@/server/lib/clock";
import { errors } from "@/server/lib/errors";
import { actorLabel } from "./actor-label";
import { auditChange } from "@/server/domain/audit/audit-change";
import { OPEN_SESSION_STATUSES } from "./cancel-open-sessions";
import { findPackage } from "./find-package";
import { loadPackageView } from "./load-package-view";
import type { TPackageActor } from "./package-actor";
import { recordPackageEvent } from "./record-package-event";
import type { TPackage, TPackageRef } from "./schemas";

/**
 * ON_HOLD → IN_PROGRESS; PACKAGE_RESUMED. The expiry (and every open session's next automatic reminder) moves
 * later by the time spent on hold, so a hold never eats into the recipients' time. 409 unless ON_HOLD.
 */
export async function resumePackage(db: Db, actor: TPackageActor, input: TPackageRef): Promise<TPackage> {
  return withEvents(db, async (tx) => {
    const pkg = await findPackage(tx, actor, input.packageId, { forUpdate: true });
    if (pkg.status !== "ON_HOLD") throw errors.conflict("Only ON_HOLD packages can be resumed");
    const at = now();
    const heldMs = Math.max(0, at.getTime() - (pkg.holdStartedAt ?? at).getTime());
    const expiresAt = pkg.expiresAt ? new Date(pkg.expiresAt.getTime() + heldMs) : null;
    const [resumed] = await tx
      .update(packages)
      .set({ status: "IN_PROGRESS", holdStartedAt: null, expiresAt, updatedAt: at })
      .where(eq(packages.id, pkg.id))
      .returning();
    if (heldMs > 0) {
      await tx
        .update(recipientSessions)
        .set({ nextReminderAt: sql`${recipientSessions.nextReminderAt} + (${heldMs}::bigint * interval '1 millisecond')` })
        .where(
          and(
            eq(recipientSessions.packageId, pkg.id),
            inArray(recipientSessions.status, [...OPEN_SESSION_STATUSES]),
            isNotNull(recipientSessions.nextReminderAt),
          ),
        );
    }
    await recordPackageEvent(tx, resumed!, "PACKAGE_RESUMED", { resumedBy: actorLabel(actor), expiresAt: expiresAt?.toISOString() ?? null });
    await auditChange(tx, actor, resumed!, "package.resumed", { heldMs });
    return loadPackageView(tx, resumed!);
  });
}
