import type { Db } from "@/server/db/client";
import { auditAttribution, type TActor } from "@/server/domain/access/actor";
import { recordAudit } from "@/server/domain/audit/record-audit";

export type TSigningGroupAuditAction =
  | "signing_group.created"
  | "signing_group.renamed"
  | "signing_group.deleted"
  | "signing_group.member_added"
  | "signing_group.member_removed";

/** Records a change to a signing group in the change's own transaction, attributed to the member or key. */
export async function auditSigningGroupChange(tx: Db, actor: TActor, groupId: string, action: TSigningGroupAuditAction, data: Record<string, unknown>) {
  await recordAudit(tx, {
    organisationId: actor.organisation.id,
    workspaceId: actor.workspace.id,
    subjectType: "signing_group",
    subjectId: groupId,
    action,
    ...auditAttribution(actor),
    data,
  });
}
