"use client";

import { useState, type FormEvent } from "react";
import { errorMessage, fieldErrors } from "@/components/lib/api-client";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Dialog, DialogFooter } from "@/components/ui/dialog";
import { Field } from "@/components/ui/field";
import { Checkbox, Input, Select } from "@/components/ui/input";
import type { TTemplateChoice } from "@/server/domain/custom-fields/list-template-choices";
import { useCreateCustomField, useUpdateCustomField, type TCustomField } from "./query";

type TProps = { open: boolean; onClose: () => void; templates: TTemplateChoice[]; /** Edit this one; create when absent. */ field?: TCustomField };

export function CustomFieldDialog({ open, onClose, templates, field }: TProps) {
  return (
    <Dialog
      open={open}
      onClose={onClose}
      title={field ? `Edit “${field.key}”` : "New custom field"}
      description="Packages carry custom field values in their metadata, under the field's key."
    >
      <CustomFieldForm field={field} templates={templates} onDone={onClose} />
    </Dialog>
  );
}

function CustomFieldForm({ field, templates, onDone }: { field?: TCustomField; templates: TTemplateChoice[]; onDone: () => void }) {
  const create = useCreateCustomField();
  const update = useUpdateCustomField();
  const mutation = field ? update : create;
  const [key, setKey] = useState(field?.key ?? "");
  const [label, setLabel] = useState(field?.label ?? "");
  const [active, setActive] = useState(field?.active ?? true);
  const [templateId, setTemplateId] = useState(field?.templateId ?? "");
  const details = fieldErrors(mutation.error);
  const general = mutation.error && Object.keys(details).length === 0 ? errorMessage(mutation.error) : null;
  // A scope naming a template that is no longer listed (deleted meanwhile) still shows as its id.
  const unknownScope = templateId && !templates.some((t) => t.id === templateId);

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    const scope = templateId || null;
    if (field) update.mutate({ id: field.id, label, active, templateId: scope }, { onSuccess: onDone });
    else create.mutate({ key, label, active, templateId: scope }, { onSuccess: onDone });
  }

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-5">
      {general ? <Alert tone="error">{general}</Alert> : null}
      <Field
        label="Key"
        error={details.key}
        hint={field ? "The key cannot change: packages store their values under it." : "Letters, digits, _ . and -, starting with a letter, e.g. costCentre."}
      >
        {(p) => (
          <Input
            {...p}
            value={key}
            maxLength={64}
            disabled={Boolean(field)}
            data-autofocus={field ? undefined : true}
            className="font-mono"
            onChange={(e) => setKey(e.target.value)}
          />
        )}
      </Field>
      <Field label="Label" error={details.label}>
        {(p) => (
          <Input
            {...p}
            value={label}
            maxLength={200}
            data-autofocus={field ? true : undefined}
            placeholder="e.g. Cost centre"
            onChange={(e) => setLabel(e.target.value)}
          />
        )}
      </Field>
      <Field label="Applies to" error={details.templateId} hint="Packages from every template, or only from one.">
        {(p) => (
          <Select {...p} value={templateId} onChange={(e) => setTemplateId(e.target.value)}>
            <option value="">Every template</option>
            {templates.map((t) => (
              <option key={t.id} value={t.id}>
                {t.name}
                {t.status === "ACTIVE" ? "" : ` (${t.status.toLowerCase()})`}
              </option>
            ))}
            {unknownScope ? <option value={templateId}>{templateId}</option> : null}
          </Select>
        )}
      </Field>
      <label className="flex items-start gap-3 rounded-md border border-zinc-200 px-3 py-2.5 hover:bg-zinc-50">
        <Checkbox className="mt-0.5" checked={active} onChange={(e) => setActive(e.target.checked)} />
        <span>
          <span className="block text-sm font-medium text-zinc-900">Active</span>
          <span className="block text-xs text-zinc-500">Only active fields are listed by the API and accepted in new packages.</span>
        </span>
      </label>
      <DialogFooter inset>
        <Button variant="secondary" onClick={onDone} disabled={mutation.isPending}>
          Cancel
        </Button>
        <Button type="submit" pending={mutation.isPending}>
          {field ? "Save field" : "Create field"}
        </Button>
      </DialogFooter>
    </form>
  );
}
