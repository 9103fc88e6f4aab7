import { Badge, type TBadgeTone } from "@/components/ui/badge";
import type { TMailKind, TMailStatus } from "@/server/db/schema/mail";

const STATUS: Record<TMailStatus, { tone: TBadgeTone; label: string }> = {
  QUEUED: { tone: "warning", label: "Queued" },
  SENT: { tone: "success", label: "Sent" },
  FAILED: { tone: "danger", label: "Failed" },
  KEPT: { tone: "brand", label: "In outbox" },
};

export const KIND_LABELS: Record<TMailKind, string> = {
  INVITATION: "Invitation",
  REMINDER: "Reminder",
  COMPLETED: "Completed copy",
  DECLINED: "Decline notice",
  VOIDED: "Void notice",
  EXPIRED: "Expiry notice",
  TEST: "Test message",
  SIGNING_CODE: "Signing code",
};

export function MailStatusBadge({ status }: { status: TMailStatus }) {
  const s = STATUS[status];
  return <Badge tone={s.tone}>{s.label}</Badge>;
}

/** A test workspace's message: kept in the outbox whatever the configuration, never sent (docs/decisions/test-mode.md). */
export function TestMailBadge() {
  return (
    <Badge tone="warning" className="ml-1 font-semibold uppercase">
      Test
    </Badge>
  );
}
