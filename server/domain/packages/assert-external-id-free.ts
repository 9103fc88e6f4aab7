import { and, eq, isNull, ne } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { packages } from "@/server/db/schema";
import { errors } from "@/server/lib/errors";

/** `externalId` is unique among the workspace's (not deleted) packages: 409 when another package holds it. */
export async function assertExternalIdFree(db: Db, workspaceId: string, externalId: string, exceptPackageId?: string): Promise<void> {
  const where = [eq(packages.workspaceId, workspaceId), eq(packages.externalId, externalId), isNull(packages.deletedAt)];
  if (exceptPackageId) where.push(ne(packages.id, exceptPackageId));
  const [row] = await db
    .select({ id: packages.id })
    .from(packages)
    .where(and(...where))
    .limit(1);
  if (row) throw errors.conflict("externalId is already used by another package");
}
