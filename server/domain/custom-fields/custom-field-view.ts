import type { customFieldDefinitions } from "@/server/db/schema";
import type { TCustomField } from "./schemas";

type TCustomFieldRow = typeof customFieldDefinitions.$inferSelect;

export function toCustomFieldView(row: TCustomFieldRow): TCustomField {
  return {
    id: row.id,
    key: row.key,
    label: row.label,
    active: row.active,
    templateId: row.templateId,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}
