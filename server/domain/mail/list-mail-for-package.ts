import { and, asc, eq, isNull } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { mailMessages, packages } from "@/server/db/schema";
import type { TActor } from "@/server/domain/access/actor";
import { errors } from "@/server/lib/errors";
import { mailSummaryView } from "./mail-view";

/**
 * The package page's "Mail" panel: every message about one package, oldest first, with its delivery status.
 * 404 when the package is not in the actor's workspace (the package page has already applied visibility).
 */
export async function listMailForPackage(db: Db, actor: TActor, packageId: string) {
  const [pkg] = await db
    .select({ id: packages.id })
    .from(packages)
    .where(and(eq(packages.id, packageId), eq(packages.workspaceId, actor.workspace.id), isNull(packages.deletedAt)));
  if (!pkg) throw errors.notFound("Package");
  const rows = await db
    .select()
    .from(mailMessages)
    .where(and(eq(mailMessages.packageId, packageId), eq(mailMessages.workspaceId, actor.workspace.id)))
    .orderBy(asc(mailMessages.createdAt), asc(mailMessages.id));
  return rows.map(mailSummaryView);
}
