import { eq } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { packages } from "@/server/db/schema";
import type { TPackageRow } from "./find-package";

/**
 * The last recipient finished: sealing is now due. The package stays IN_PROGRESS (its `sealing` shows on GET)
 * until the sealing job (server/domain/sealing/) has stored the sealed files and the certificate; that job
 * sets COMPLETED and records PACKAGE_COMPLETED in the same transaction as the files, so an integrator who
 * receives the event can download at once. The heavy work never runs in the recipient's request.
 */
export async function finishPackage(tx: Db, pkg: TPackageRow, at: Date): Promise<TPackageRow> {
  const [due] = await tx
    .update(packages)
    .set({ sealRequestedAt: at, sealNextAttemptAt: at, sealAttempts: 0, sealLastError: null, sealClaimToken: null, updatedAt: at })
    .where(eq(packages.id, pkg.id))
    .returning();
  return due!;
}
