import { errors } from "@/server/lib/errors";
import type { TPackageRow } from "./find-package";

/** Corrections (add, change, remove a recipient) are for packages that have not ended: DRAFT, SCHEDULED, IN_PROGRESS, ON_HOLD. */
export function assertCorrectable(pkg: TPackageRow): void {
  if (pkg.status === "COMPLETED" || pkg.status === "DECLINED" || pkg.status === "VOID") {
    throw errors.conflict("The package has ended; its recipients can no longer be changed");
  }
  // Every recipient has signed and the seal is being made from exactly these recipients: a new one would
  // never be asked to sign, yet appear on the certificate.
  if (pkg.sealRequestedAt) throw errors.conflict("Every recipient has signed and the package is being sealed; its recipients can no longer be changed");
}
