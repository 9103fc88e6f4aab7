import { eq, inArray, or, sql, type SQL } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { mailMessages, packageShares, packages } from "@/server/db/schema";
import type { TActor } from "@/server/domain/access/actor";
import { can } from "@/server/domain/access/gates";

/**
 * Which messages of the current workspace the actor sees. Mail carries signing links, so it follows the
 * packages' visibility: with canViewAllPackages every message of the workspace; otherwise those of packages the
 * member owns or was shared, and their own (test messages, owner notices).
 */
export function mailVisibility(db: Db, actor: TActor): SQL | undefined {
  const inWorkspace = eq(mailMessages.workspaceId, actor.workspace.id);
  if (can(actor, "canViewAllPackages")) return inWorkspace;
  const owned = db.select({ id: packages.id }).from(packages).where(eq(packages.ownerUserId, actor.user.id));
  const shared = db.select({ id: packageShares.packageId }).from(packageShares).where(eq(packageShares.userId, actor.user.id));
  return sql`${inWorkspace} and ${or(eq(mailMessages.userId, actor.user.id), inArray(mailMessages.packageId, owned), inArray(mailMessages.packageId, shared))}`;
}
