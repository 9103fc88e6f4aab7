import { and, eq, isNull } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { packages } from "@/server/db/schema";
import { errors } from "@/server/lib/errors";
import { loadPackageView } from "./load-package-view";
import type { TPackageActor } from "./package-actor";
import type { TPackage } from "./schemas";
import { visiblePackages } from "./visible-packages";

/**
 * from-template's idempotency by `externalId`: the workspace's package with it, when the actor can see it;
 * null when there is none; 409 when one exists that the actor cannot see (it is someone else's).
 */
export async function findByExternalId(db: Db, actor: TPackageActor, externalId: string): Promise<TPackage | null> {
  const [any] = await db
    .select({ id: packages.id })
    .from(packages)
    .where(and(eq(packages.workspaceId, actor.workspace.id), eq(packages.externalId, externalId), isNull(packages.deletedAt)));
  if (!any) return null;
  const [visible] = await db
    .select()
    .from(packages)
    .where(and(eq(packages.id, any.id), visiblePackages(actor)));
  if (!visible) throw errors.conflict("externalId is already used by another package");
  return loadPackageView(db, visible);
}
