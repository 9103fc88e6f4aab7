import { and, eq, exists, isNull, or, sql, type SQL } from "drizzle-orm";
import { packages, packageShares } from "@/server/db/schema";
import { can } from "@/server/domain/access/gates";
import { isServiceActor, type TPackageActor } from "./package-actor";

/**
 * The one condition on `packages` for everything an actor may see or act on: its workspace, not deleted, and —
 * without canViewAllPackages — only packages the member (or the key's issuer) owns, that were shared with them,
 * or that this key created. Lists, reads and every action use it, so an invisible package is a 404 everywhere.
 */
export function visiblePackages(actor: TPackageActor): SQL {
  const base = and(eq(packages.workspaceId, actor.workspace.id), isNull(packages.deletedAt))!;
  if (isServiceActor(actor) || can(actor, "canViewAllPackages")) return base;
  const shared = exists(
    sql`(select 1 from ${packageShares} where ${packageShares.packageId} = ${packages.id} and ${packageShares.userId} = ${actor.user.id})`,
  );
  const mine = [eq(packages.ownerUserId, actor.user.id), shared];
  if (actor.apiKey) mine.push(eq(packages.createdByApiKeyId, actor.apiKey.id));
  return and(base, or(...mine))!;
}

/** The service and holders of canViewAllPackages see every live package of the workspace (the `base` above). */
export function seesAllPackages(actor: TPackageActor): boolean {
  return isServiceActor(actor) || can(actor, "canViewAllPackages");
}
