import { and, eq } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { packages } from "@/server/db/schema";
import { errors } from "@/server/lib/errors";
import type { TPackageActor } from "./package-actor";
import { visiblePackages } from "./visible-packages";

export type TPackageRow = typeof packages.$inferSelect;

/**
 * The package if the actor can see it, else 404 (another workspace's, a deleted one, or one hidden by
 * visibility). `forUpdate` locks the row for the rest of the transaction: every transition takes this lock
 * first, so two actions on one package apply one after the other and each sees the other's result.
 */
export async function findPackage(db: Db, actor: TPackageActor, packageId: string, opts: { forUpdate?: boolean } = {}): Promise<TPackageRow> {
  if (packageId.includes("\u0000")) throw errors.notFound("Package");
  const query = db
    .select()
    .from(packages)
    .where(and(eq(packages.id, packageId), visiblePackages(actor)));
  const [row] = opts.forUpdate ? await query.for("update", { of: packages }) : await query;
  if (!row) throw errors.notFound("Package");
  return row;
}
