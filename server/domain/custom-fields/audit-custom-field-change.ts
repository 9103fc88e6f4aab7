import type { Db } from "@/server/db/client";
import { auditAttribution, type TActor } from "@/server/domain/access/actor";
import { recordAudit } from "@/server/domain/audit/record-audit";

export type TCustomFieldAuditAction = "custom_field.created" | "custom_field.updated" | "custom_field.deleted";

/** Records a change to a custom field definition in the change's own transaction. */
export async function auditCustomFieldChange(tx: Db, actor: TActor, customFieldId: string, action: TCustomFieldAuditAction, data: Record<string, unknown>) {
  await recordAudit(tx, {
    organisationId: actor.organisation.id,
    workspaceId: actor.workspace.id,
    subjectType: "custom_field",
    subjectId: customFieldId,
    action,
    ...auditAttribution(actor),
    data,
  });
}
