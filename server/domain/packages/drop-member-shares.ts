import { and, eq, inArray } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { packages, packageShares } from "@/server/db/schema";
import type { TActor } from "@/server/domain/access/actor";
import { auditChange } from "@/server/domain/audit/audit-change";

/**
 * When a member is removed from an organisation, the shares of its packages with them go too, in the removal's
 * transaction, each with its `package.unshared` audit event: a member added again later starts with nothing
 * shared, as a new member would (their user row is reused, so a kept share would silently come back).
 */
export async function dropMemberShares(tx: Db, actor: TActor, member: { userId: string; email: string }): Promise<void> {
  const inOrganisation = tx.select({ id: packages.id }).from(packages).where(eq(packages.organisationId, actor.organisation.id));
  const dropped = await tx
    .delete(packageShares)
    .where(and(eq(packageShares.userId, member.userId), inArray(packageShares.packageId, inOrganisation)))
    .returning({ packageId: packageShares.packageId });
  if (dropped.length === 0) return;
  const rows = await tx
    .select({ id: packages.id, organisationId: packages.organisationId, workspaceId: packages.workspaceId })
    .from(packages)
    .where(
      and(
        eq(packages.organisationId, actor.organisation.id),
        inArray(
          packages.id,
          dropped.map((d) => d.packageId),
        ),
      ),
    );
  for (const pkg of rows) {
    await auditChange(tx, actor, pkg, "package.unshared", { userId: member.userId, email: member.email, memberRemoved: true });
  }
}
