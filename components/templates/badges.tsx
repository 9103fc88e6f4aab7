import { Badge, type TBadgeTone } from "@/components/ui/badge";
import type { TTemplateStatus } from "@/server/db/schema/templates";

const TONE: Record<TTemplateStatus, TBadgeTone> = { DRAFT: "neutral", ACTIVE: "success", ARCHIVED: "warning" };
export const TEMPLATE_STATUS_LABEL: Record<TTemplateStatus, string> = { DRAFT: "Draft", ACTIVE: "Active", ARCHIVED: "Archived" };

export function TemplateStatusBadge({ status }: { status: TTemplateStatus }) {
  return <Badge tone={TONE[status]}>{TEMPLATE_STATUS_LABEL[status]}</Badge>;
}
