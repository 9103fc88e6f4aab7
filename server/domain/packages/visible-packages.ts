import { and, eq, exists, isNull, or, sql, type Placeholder, type SQL } from "drizzle-orm";
import { packages, packageShares } from "@/server/db/schema";
import { can } from "@/server/domain/access/gates";
import { isServiceActor, type TPackageActor } from "./package-actor";

/** A value of the visibility condition: the actor's own, or a placeholder filled in when a prepared query runs. */
type TValue = string | Placeholder;

/** What the visibility condition depends on: the workspace, and for a restricted actor its user and key. */
export type TVisibility = { workspaceId: TValue; restricted: false } | { workspaceId: TValue; restricted: true; userId: TValue; apiKeyId?: TValue };

/**
 * The one condition on `packages` for everything an actor may see or act on: its workspace, not deleted, and —
 * without canViewAllPackages — only packages the member (or the key's issuer) owns, that were shared with them,
 * or that this key created. Lists, reads and every action use it, so an invisible package is a 404 everywhere.
 */
export function visiblePackages(actor: TPackageActor): SQL {
  return visibilityCondition(visibilityOf(actor));
}

/** The actor's visibility with its own values: the service and holders of canViewAllPackages see the whole workspace. */
export function visibilityOf(actor: TPackageActor): TVisibility {
  if (isServiceActor(actor) || can(actor, "canViewAllPackages")) return { workspaceId: actor.workspace.id, restricted: false };
  return { workspaceId: actor.workspace.id, restricted: true, userId: actor.user.id, apiKeyId: actor.apiKey?.id };
}

/** The condition itself, from values or placeholders (prepared queries, see list-packages.ts). */
export function visibilityCondition(v: TVisibility): SQL {
  const base = and(eq(packages.workspaceId, v.workspaceId), isNull(packages.deletedAt))!;
  if (!v.restricted) return base;
  const shared = exists(sql`(select 1 from ${packageShares} where ${packageShares.packageId} = ${packages.id} and ${packageShares.userId} = ${v.userId})`);
  const mine = [eq(packages.ownerUserId, v.userId), shared];
  if (v.apiKeyId !== undefined) mine.push(eq(packages.createdByApiKeyId, v.apiKeyId));
  return and(base, or(...mine))!;
}
