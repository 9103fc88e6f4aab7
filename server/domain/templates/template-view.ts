/**
 * How templates and their parts read through both doors: declared shapes built from rows, never raw rows
 * (storage keys and the DOCX source stay on the server). The one mapping every template operation uses.
 */
import { toDocumentView } from "@/server/domain/documents/document-view";
import type { documents, templateFields, templateRoles, templates } from "@/server/db/schema";
import type { TLockHolderRow } from "@/server/domain/locks/lock-holder-view";
import { toLockHolderView } from "@/server/domain/locks/lock-holder-view";
import type { TActor } from "@/server/domain/access/actor";

type TTemplateRow = typeof templates.$inferSelect;
type TDocumentRow = typeof documents.$inferSelect;
type TRoleRow = typeof templateRoles.$inferSelect;
type TFieldRow = typeof templateFields.$inferSelect;

export type TTemplateCounts = { documentCount: number; roleCount: number; fieldCount: number };

export function toTemplateSummaryView(row: TTemplateRow, counts: TTemplateCounts) {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    status: row.status,
    ...counts,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** A role row's `position` is its roleIndex. */
export function toRoleView(row: TRoleRow) {
  return { roleIndex: row.position, id: row.id, name: row.name, signingGroupId: row.signingGroupId, authentication: { method: row.authMethod } };
}

/** A field addresses its role by roleIndex: the position of its role row, read with the field. */
export function toFieldView(row: TFieldRow, roleIndex: number) {
  return {
    id: row.id,
    documentId: row.documentId,
    roleIndex,
    type: row.type,
    page: row.page,
    x: row.x,
    y: row.y,
    width: row.width,
    height: row.height,
    required: row.required,
    label: row.label,
    mergeFieldKey: row.mergeFieldKey,
  };
}

export type TTemplateParts = {
  documents: TDocumentRow[];
  roles: TRoleRow[];
  fields: { field: TFieldRow; roleIndex: number }[];
  lock: TLockHolderRow | null;
  activationBlockers: string[];
};

export function toTemplateView(row: TTemplateRow, parts: TTemplateParts, actor: Pick<TActor, "user" | "apiKey">) {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    status: row.status,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    documents: parts.documents.map(toDocumentView),
    roles: parts.roles.map(toRoleView),
    fields: parts.fields.map((f) => toFieldView(f.field, f.roleIndex)),
    mergeFields: row.mergeFields,
    questions: row.questions,
    lock: parts.lock ? toLockHolderView(parts.lock, actor) : null,
    activationBlockers: parts.activationBlockers,
  };
}
