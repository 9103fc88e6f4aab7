import { and, asc, eq } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { mailMessages } from "@/server/db/schema";
import type { TActor } from "@/server/domain/access/actor";
import { findPackage } from "@/server/domain/packages/find-package";
import { mailSummaryView } from "./mail-view";
import type { TPackageRef } from "@/server/domain/packages/schemas";

/**
 * The package page's "Mail" panel: every message about one package, oldest first, with its delivery status.
 * 404 when the actor cannot see the package (another workspace's, deleted, or hidden by visibility): its mail
 * follows the package's visibility, as on the Mail page.
 */
export async function listMailForPackage(db: Db, actor: TActor, input: TPackageRef) {
  const pkg = await findPackage(db, actor, input.packageId);
  const rows = await db
    .select()
    .from(mailMessages)
    .where(and(eq(mailMessages.packageId, pkg.id), eq(mailMessages.workspaceId, actor.workspace.id)))
    .orderBy(asc(mailMessages.createdAt), asc(mailMessages.id));
  return rows.map(mailSummaryView);
}
