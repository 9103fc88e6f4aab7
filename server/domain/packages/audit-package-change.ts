import type { Db } from "@/server/db/client";
import { recordAudit } from "@/server/domain/audit/record-audit";
import type { TPackageRow } from "./find-package";
import { isServiceActor, type TPackageActor, type TRecipientActor } from "./package-actor";

/**
 * Records a package change in the change's own transaction: attributed to the member (or the key and its
 * issuing user) with the client address; to nobody for the service; to the session for a recipient.
 */
export async function auditPackageChange(
  tx: Db,
  actor: TPackageActor | TRecipientActor,
  pkg: Pick<TPackageRow, "id" | "organisationId" | "workspaceId">,
  action: string,
  data: Record<string, unknown> = {},
): Promise<void> {
  const base = { organisationId: pkg.organisationId, workspaceId: pkg.workspaceId, subjectType: "package", subjectId: pkg.id, action };
  if ("kind" in actor && actor.kind === "recipient") {
    await recordAudit(tx, { ...base, clientAddress: actor.clientAddress, data: { sessionId: actor.sessionId, ...data } });
    return;
  }
  if (isServiceActor(actor)) {
    await recordAudit(tx, { ...base, data: { by: "the service", ...data } });
    return;
  }
  await recordAudit(tx, {
    ...base,
    actorUserId: actor.user.id,
    apiKeyId: actor.apiKey?.id ?? null,
    clientAddress: actor.clientAddress,
    data,
  });
}
