import { Badge, type TBadgeTone } from "@/components/ui/badge";
import type { TPackage, TPackageSummary } from "./query";

type TStatus = TPackageSummary["status"];
type TSessionStatus = TPackage["recipientSessions"][number]["status"];

export const PACKAGE_STATUS_LABEL: Record<TStatus, string> = {
  DRAFT: "Draft",
  SCHEDULED: "Scheduled",
  IN_PROGRESS: "In progress",
  ON_HOLD: "On hold",
  COMPLETED: "Completed",
  DECLINED: "Declined",
  VOID: "Void",
};

const TONE: Record<TStatus, TBadgeTone> = {
  DRAFT: "neutral",
  SCHEDULED: "brand",
  IN_PROGRESS: "brand",
  ON_HOLD: "warning",
  COMPLETED: "success",
  DECLINED: "danger",
  VOID: "neutral",
};

/** An expired package reads VOID with `expiredAt`: it says "Expired" so nobody looks for who voided it. */
export function PackageStatusBadge({ pkg }: { pkg: Pick<TPackageSummary, "status" | "expiredAt" | "firstViewedAt"> }) {
  if (pkg.status === "VOID" && pkg.expiredAt) return <Badge tone="neutral">Expired</Badge>;
  const viewed = pkg.status === "IN_PROGRESS" && pkg.firstViewedAt;
  return <Badge tone={TONE[pkg.status]}>{viewed ? "In progress · viewed" : PACKAGE_STATUS_LABEL[pkg.status]}</Badge>;
}

export const SESSION_STATUS_LABEL: Record<TSessionStatus, string> = {
  PENDING: "Waiting",
  SENT: "Invited",
  OPENED: "Opened",
  COMPLETED: "Signed",
  DECLINED: "Declined",
  CANCELLED: "Cancelled",
};

const SESSION_TONE: Record<TSessionStatus, TBadgeTone> = {
  PENDING: "neutral",
  SENT: "brand",
  OPENED: "brand",
  COMPLETED: "success",
  DECLINED: "danger",
  CANCELLED: "neutral",
};

export function SessionStatusBadge({ status }: { status: TSessionStatus }) {
  return <Badge tone={SESSION_TONE[status]}>{SESSION_STATUS_LABEL[status]}</Badge>;
}
