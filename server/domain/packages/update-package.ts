import { eq } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { packages } from "@/server/db/schema";
import type { TActor } from "@/server/domain/access/actor";
import { assertNotLocked } from "@/server/domain/locks/assert-not-locked";
import { isUniqueViolation } from "@/server/domain/organisation/unique-violation";
import { withEvents } from "@/server/domain/transaction";
import { now } from "@/server/lib/clock";
import { errors } from "@/server/lib/errors";
import { assertCanActOn } from "./assert-can-act-on";
import { assertExternalIdFree } from "./assert-external-id-free";
import { auditChange } from "@/server/domain/audit/audit-change";
import { findPackage } from "./find-package";
import { loadPackageView } from "./load-package-view";
import { recordPackageEvent } from "./record-package-event";
import { resolveMetadata } from "./resolve-metadata";
import type { TPackage, TPackageRef, TUpdatePackage } from "./schemas";

/**
 * Changes a DRAFT or SCHEDULED package (400 otherwise; 409 while another member holds its edit lock).
 * `sendAt` moves a SCHEDULED package's send (must be in the future; PACKAGE_SCHEDULED again); a draft is
 * scheduled with send instead, where the send conditions are checked. A SCHEDULED package needs
 * canSendPackages (403; assert-can-act-on.ts): moving or changing a scheduled send is the sender's decision.
 */
export async function updatePackage(db: Db, actor: TActor, input: TPackageRef & TUpdatePackage): Promise<TPackage> {
  const { packageId, ...changes } = input;
  try {
    return await withEvents(db, async (tx) => {
      const pkg = await findPackage(tx, actor, packageId, { forUpdate: true });
      assertCanActOn(actor, pkg);
      if (pkg.status !== "DRAFT" && pkg.status !== "SCHEDULED") throw errors.badRequest("Only DRAFT or SCHEDULED packages can be changed");
      await assertNotLocked(tx, actor, { type: "package", id: pkg.id });
      const at = now();
      if (input.sendAt) {
        if (pkg.status !== "SCHEDULED") throw errors.badRequest("Schedule a draft with send (sendAt); only a SCHEDULED package's sendAt can be moved");
        if (input.sendAt.getTime() <= at.getTime()) throw errors.validation({ sendAt: ["Choose a time in the future"] });
      }
      if (input.externalId) await assertExternalIdFree(tx, pkg.workspaceId, input.externalId, pkg.id);
      const metadata = input.metadata === undefined ? undefined : await resolveMetadata(tx, pkg.workspaceId, pkg.templateId, input.metadata);
      const [updated] = await tx
        .update(packages)
        .set({
          title: input.title,
          metadata,
          externalId: input.externalId,
          expiresAt: input.expiresAt,
          sendAt: input.sendAt,
          sequential: input.sequential,
          reminders: input.reminders,
          message: input.message,
          updatedAt: at,
        })
        .where(eq(packages.id, pkg.id))
        .returning();
      const moved = input.sendAt && pkg.sendAt?.getTime() !== input.sendAt.getTime();
      if (moved) await recordPackageEvent(tx, updated!, "PACKAGE_SCHEDULED", { scheduledAt: input.sendAt!.toISOString() });
      const changed = Object.keys(changes).filter((k) => changes[k as keyof TUpdatePackage] !== undefined);
      await auditChange(tx, actor, updated!, "package.updated", { fields: changed });
      return loadPackageView(tx, updated!);
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw errors.conflict("externalId is already used by another package");
    throw err;
  }
}
