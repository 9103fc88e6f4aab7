import type { Db } from "@/server/db/client";
import type { documents } from "@/server/db/schema";
import { auditAttribution, type TActor } from "@/server/domain/access/actor";
import { recordAudit } from "@/server/domain/audit/record-audit";

export type TDocumentAuditAction = "document.added" | "document.uploaded" | "document.converted" | "document.deleted";

/**
 * Records a change to a document in the change's own transaction. `actor` is null for the upload PUT, whose
 * only credential is the upload URL: the event then names nobody rather than guessing.
 */
export async function auditDocumentChange(
  tx: Db,
  actor: Pick<TActor, "user" | "apiKey"> | null,
  row: Pick<typeof documents.$inferSelect, "id" | "organisationId" | "workspaceId" | "templateId" | "packageId" | "name">,
  action: TDocumentAuditAction,
  data: Record<string, unknown> = {},
): Promise<void> {
  await recordAudit(tx, {
    organisationId: row.organisationId,
    workspaceId: row.workspaceId,
    subjectType: "document",
    subjectId: row.id,
    action,
    ...(actor ? auditAttribution(actor) : {}),
    data: { name: row.name, templateId: row.templateId, packageId: row.packageId, ...data },
  });
}
