import { eq } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { packages } from "@/server/db/schema";
import type { TPackageRow } from "./find-package";

/**
 * A correction to a package's recipients (add, change, remove) changes the package: its `updatedAt` moves to `at`
 * in the caller's transaction, so lists (newest `updatedAt` first) and clients syncing by it see the change.
 * Returns the row as it now is.
 */
export async function touchPackage(tx: Db, pkg: TPackageRow, at: Date): Promise<TPackageRow> {
  const [touched] = await tx.update(packages).set({ updatedAt: at }).where(eq(packages.id, pkg.id)).returning();
  return touched!;
}
