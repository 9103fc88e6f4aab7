import { and, asc, eq } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { sealedFiles } from "@/server/db/schema";
import { errors } from "@/server/lib/errors";
import { findPackage, type TPackageRow } from "./find-package";
import type { TPackageActor } from "./package-actor";

export type TSealedFileRow = typeof sealedFiles.$inferSelect;

/**
 * The sealed files of a package the actor can see (404 otherwise), for the downloads (ops 23–25): 409 before
 * completion. A COMPLETED package always has them: the sealing job stores them in the transaction that
 * completes it (server/domain/sealing/seal-claimed-package.ts).
 */
export async function findSealedFiles(db: Db, actor: TPackageActor, packageId: string): Promise<{ pkg: TPackageRow; files: TSealedFileRow[] }> {
  const pkg = await findPackage(db, actor, packageId);
  if (pkg.status !== "COMPLETED") throw errors.conflict("The package is not completed yet");
  const files = await db
    .select()
    .from(sealedFiles)
    .where(and(eq(sealedFiles.packageId, pkg.id), eq(sealedFiles.workspaceId, pkg.workspaceId)))
    .orderBy(asc(sealedFiles.kind), asc(sealedFiles.position));
  // Packages completed before sealing existed have no sealed files: say so rather than answer an empty file.
  if (files.length === 0) throw errors.conflict("The signed files of this package are not available");
  return { pkg, files };
}
