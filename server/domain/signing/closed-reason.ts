import type { TPackageRow } from "@/server/domain/packages/find-package";
import type { TSessionRow } from "@/server/domain/packages/invite-session";
import type { TSigningClosedReason } from "./schemas";

/**
 * Which end page a link shows, or null when this recipient can sign now. The package's end states come first
 * (a voided package reads voided even to someone who had finished), then this recipient's own state.
 */
export function closedReason(pkg: TPackageRow, session: TSessionRow): TSigningClosedReason | null {
  if (pkg.deletedAt) return "DELETED";
  if (pkg.status === "VOID") return pkg.expiredAt ? "EXPIRED" : "VOIDED";
  // Everyone signed: the package reads COMPLETED once sealed; while the sealing job runs it is IN_PROGRESS with
  // `sealRequestedAt` set, which to a recipient is the same news.
  if (pkg.status === "COMPLETED" || (pkg.status === "IN_PROGRESS" && pkg.sealRequestedAt)) return "COMPLETED";
  if (pkg.status === "DECLINED") return session.status === "DECLINED" ? "DECLINED" : "ENDED";
  if (session.status === "COMPLETED") return "FINISHED";
  if (session.status === "DECLINED") return "DECLINED";
  if (session.status === "CANCELLED") return "ENDED";
  if (pkg.status === "DRAFT" || pkg.status === "SCHEDULED") return "NOT_SENT";
  if (pkg.status === "ON_HOLD") return "ON_HOLD";
  if (session.status === "PENDING") return "NOT_YOUR_TURN";
  return null;
}
