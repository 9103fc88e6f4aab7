import { asc, eq } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { documents, packageEvidence, recipientSessions } from "@/server/db/schema";
import type { TPackageRow } from "./find-package";
import { toPackageView } from "./package-view";
import type { TPackage } from "./schemas";

/** The full package shape for a row already found (and checked) by the caller, read in the caller's transaction. */
export async function loadPackageView(db: Db, pkg: TPackageRow): Promise<TPackage> {
  const [sessions, docs, evidence] = await Promise.all([
    db.select().from(recipientSessions).where(eq(recipientSessions.packageId, pkg.id)).orderBy(asc(recipientSessions.position)),
    db.select().from(documents).where(eq(documents.packageId, pkg.id)).orderBy(asc(documents.position), asc(documents.createdAt)),
    pkg.status === "COMPLETED" ? db.select().from(packageEvidence).where(eq(packageEvidence.packageId, pkg.id)) : Promise.resolve([]),
  ]);
  return toPackageView(pkg, sessions, docs, evidence[0]);
}
