import type { Db } from "@/server/db/client";
import { auditAttribution, type TActor } from "@/server/domain/access/actor";
import { recordAudit } from "@/server/domain/audit/record-audit";

export type TTemplateAuditAction =
  | "template.created"
  | "template.updated"
  | "template.status_changed"
  | "template.deleted"
  | "template.role_added"
  | "template.role_updated"
  | "template.role_deleted"
  | "template.field_added"
  | "template.field_updated"
  | "template.field_deleted"
  | "template.lock_broken";

/** Records a change to a template in the change's own transaction, attributed to the member or key issuer (and key). */
export async function auditTemplateChange(
  tx: Db,
  actor: TActor,
  templateId: string,
  action: TTemplateAuditAction,
  data: Record<string, unknown> = {},
): Promise<void> {
  await recordAudit(tx, {
    organisationId: actor.organisation.id,
    workspaceId: actor.workspace.id,
    subjectType: "template",
    subjectId: templateId,
    action,
    ...auditAttribution(actor),
    data,
  });
}
