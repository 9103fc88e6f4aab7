import type { Db } from "@/server/db/client";
import { recordAudit } from "@/server/domain/audit/record-audit";
import type { TActor } from "@/server/domain/access/actor";

export type TEndpointAuditAction = "webhook.endpoint_created" | "webhook.endpoint_updated" | "webhook.endpoint_deleted" | "webhook.secret_rotated";

/**
 * Records a change to an endpoint in the change's own transaction, attributed to the acting member or key
 * issuer (and the key). `data` names what changed — never a secret.
 */
export async function auditEndpointChange(
  tx: Db,
  actor: TActor,
  endpointId: string,
  action: TEndpointAuditAction,
  data: Record<string, unknown> = {},
): Promise<void> {
  await recordAudit(tx, {
    organisationId: actor.organisation.id,
    workspaceId: actor.workspace.id,
    subjectType: "webhook_endpoint",
    subjectId: endpointId,
    action,
    actorUserId: actor.user.id ?? null,
    apiKeyId: actor.apiKey?.id ?? null,
    data,
  });
}
