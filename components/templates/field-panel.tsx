"use client";

import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Checkbox, Input, Select } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { FIELD_TYPE_LABELS } from "./field-geometry";
import type { TMergeField, TTemplateField, TTemplateRole, TUpdateFieldInput } from "./query";

type TFieldPanelProps = {
  field: TTemplateField;
  roles: TTemplateRole[];
  mergeFields: TMergeField[];
  readOnly: boolean;
  onUpdate: (field: TTemplateField, change: TUpdateFieldInput, what: string) => void;
  onDelete: (field: TTemplateField) => void;
  onClose: () => void;
};

/** The selected field's settings: its role, whether it is required, its label and (text fields) a merge field. */
export function FieldPanel({ field, roles, mergeFields, readOnly, onUpdate, onDelete, onClose }: TFieldPanelProps) {
  const id = `field-${field.id}`;
  return (
    <section aria-labelledby={`${id}-title`} className="space-y-4" data-testid="field-panel">
      <div className="flex items-start justify-between gap-2">
        <div>
          <h3 id={`${id}-title`} className="text-sm font-semibold text-zinc-900">
            {FIELD_TYPE_LABELS[field.type]} field
          </h3>
          <p className="text-xs text-zinc-500 tabular-nums">
            Page {field.page} · {Math.round(field.x)}, {Math.round(field.y)} pt · {Math.round(field.width)} × {Math.round(field.height)} pt
          </p>
        </div>
        <Button variant="ghost" size="sm" onClick={onClose}>
          Done
        </Button>
      </div>
      <div className="space-y-1.5">
        <Label htmlFor={`${id}-role`}>Role</Label>
        <Select id={`${id}-role`} value={field.roleIndex} disabled={readOnly} onChange={(e) => onUpdate(field, { roleIndex: Number(e.target.value) }, "role")}>
          {roles.map((r) => (
            <option key={r.id} value={r.roleIndex}>
              {r.roleIndex + 1}. {r.name}
            </option>
          ))}
        </Select>
      </div>
      <label className="flex items-center gap-2 text-sm text-zinc-800">
        <Checkbox checked={field.required} disabled={readOnly} onChange={(e) => onUpdate(field, { required: e.target.checked }, "required")} />
        Required
      </label>
      {/* Keyed by field so switching fields starts from the new field's label. */}
      <LabelInput key={field.id} id={`${id}-label`} field={field} readOnly={readOnly} onUpdate={onUpdate} />
      {field.type === "text" ? (
        <div className="space-y-1.5">
          <Label htmlFor={`${id}-merge`}>Merge field</Label>
          <Select
            id={`${id}-merge`}
            value={field.mergeFieldKey ?? ""}
            disabled={readOnly}
            onChange={(e) => onUpdate(field, { mergeFieldKey: e.target.value || null }, "merge field")}
          >
            <option value="">None</option>
            {mergeFields.map((m) => (
              <option key={m.key} value={m.key}>
                {m.label} ({m.key})
              </option>
            ))}
          </Select>
          <p className="text-xs text-zinc-500">Pre-fills the field from the package’s value for this merge field.</p>
        </div>
      ) : null}
      <Button variant="danger-ghost" size="sm" disabled={readOnly} onClick={() => onDelete(field)}>
        Delete field
      </Button>
    </section>
  );
}

/** Saved when the input is left or Enter is pressed, not at every keystroke. */
function LabelInput({ id, field, readOnly, onUpdate }: { id: string; field: TTemplateField; readOnly: boolean; onUpdate: TFieldPanelProps["onUpdate"] }) {
  const [value, setValue] = useState(field.label ?? "");
  const commit = () => {
    const next = value.trim() ? value.trim() : null;
    if (next !== field.label) onUpdate(field, { label: next }, "label");
  };
  return (
    <div className="space-y-1.5">
      <Label htmlFor={id}>
        Label <span className="font-normal text-zinc-500">(optional)</span>
      </Label>
      <Input
        id={id}
        value={value}
        disabled={readOnly}
        maxLength={200}
        placeholder="Shown to the signer"
        onChange={(e) => setValue(e.target.value)}
        onBlur={commit}
        onKeyDown={(e) => {
          if (e.key === "Enter") commit();
        }}
      />
    </div>
  );
}
