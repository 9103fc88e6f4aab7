import type { TCompletedField, TSigningField } from "./schemas";
import type { TFieldRow } from "./lock-signing-field";

/** The one mapping from a field row to what the signing page sees. */
export function fieldView(f: TFieldRow): TSigningField {
  return {
    id: f.id,
    documentId: f.documentId,
    type: f.type,
    page: f.page,
    x: f.x,
    y: f.y,
    width: f.width,
    height: f.height,
    required: f.required,
    label: f.label,
    readOnly: f.mergeFieldKey !== null && f.value !== null,
    value: f.value,
    valueKind: f.valueKind,
    hasImage: f.valueStorageKey !== null,
  };
}

/** Another recipient's field once they finished: its sealed value, read-only, with who filled it in. */
export function completedFieldView(f: TFieldRow, signer: string): TCompletedField {
  return { ...fieldView(f), readOnly: true, signer };
}
