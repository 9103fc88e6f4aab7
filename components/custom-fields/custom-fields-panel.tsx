"use client";

import { useState } from "react";
import { ApiError, errorMessage } from "@/components/lib/api-client";
import { Alert } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardHeader } from "@/components/ui/card";
import { ConfirmItemDialog } from "@/components/ui/confirm-dialog";
import { EmptyState } from "@/components/ui/empty-state";
import { TBody, TD, TH, THead, TR, Table } from "@/components/ui/table";
import type { TTemplateChoice } from "@/server/domain/custom-fields/list-template-choices";
import { CustomFieldDialog } from "./custom-field-dialog";
import { useCustomFields, useDeleteCustomField, type TCustomField } from "./query";

function StatusBadge({ active }: { active: boolean }) {
  return active ? <Badge tone="success">Active</Badge> : <Badge tone="neutral">Inactive</Badge>;
}

export function CustomFieldsPanel({ canManage, templates }: { canManage: boolean; templates: TTemplateChoice[] }) {
  const fields = useCustomFields();
  const remove = useDeleteCustomField();
  const [editing, setEditing] = useState<{ field?: TCustomField } | null>(null);
  const [deleting, setDeleting] = useState<TCustomField | null>(null);
  const list = fields.data?.customFields ?? [];
  const templateName = (id: string | null) => (id ? (templates.find((t) => t.id === id)?.name ?? "A deleted template") : "Every template");
  const planLacksFeature = fields.error instanceof ApiError && fields.error.status === 402;

  return (
    <>
      <Card>
        <CardHeader
          title="Custom fields"
          description="Keys that packages accept in their metadata, e.g. a cost centre or a CRM id."
          actions={canManage && !planLacksFeature ? <Button onClick={() => setEditing({})}>New field</Button> : null}
        />
        {fields.isPending ? (
          <p className="px-6 py-10 text-center text-sm text-zinc-500">Loading custom fields…</p>
        ) : fields.isError ? (
          <div className="p-6">
            <Alert tone={planLacksFeature ? "warning" : "error"} title={planLacksFeature ? "Not in your plan" : undefined}>
              {planLacksFeature
                ? "Your plan does not include custom fields. The operator of this instance can enable them with set-plan."
                : errorMessage(fields.error)}
            </Alert>
          </div>
        ) : list.length === 0 ? (
          <EmptyState
            title="No custom fields yet"
            description={
              canManage
                ? "Define a field with a key, e.g. costCentre, and packages can carry a value for it in their metadata."
                : "Members who can create templates define custom fields here."
            }
            action={canManage ? <Button onClick={() => setEditing({})}>New field</Button> : null}
          />
        ) : (
          <Table aria-label="Custom fields">
            <THead>
              <TR>
                <TH>Field</TH>
                <TH className="hidden sm:table-cell">Applies to</TH>
                <TH className="hidden sm:table-cell">Status</TH>
                <TH className="text-right">
                  <span className="sr-only">Actions</span>
                </TH>
              </TR>
            </THead>
            <TBody>
              {list.map((f) => (
                <TR key={f.id} data-testid="custom-field-row">
                  <TD>
                    <span className="block font-medium break-words text-zinc-900">{f.label}</span>
                    <span className="block font-mono text-xs break-words text-zinc-500">{f.key}</span>
                    <span className="mt-1 flex flex-wrap items-center gap-2 text-xs text-zinc-500 sm:hidden">
                      {templateName(f.templateId)}
                      <StatusBadge active={f.active} />
                    </span>
                  </TD>
                  <TD className="hidden sm:table-cell">{templateName(f.templateId)}</TD>
                  <TD className="hidden sm:table-cell">
                    <StatusBadge active={f.active} />
                  </TD>
                  <TD className="text-right whitespace-nowrap">
                    {canManage ? (
                      <>
                        <Button variant="ghost" size="sm" onClick={() => setEditing({ field: f })}>
                          Edit<span className="sr-only"> {f.key}</span>
                        </Button>
                        <Button variant="danger-ghost" size="sm" onClick={() => setDeleting(f)}>
                          Delete<span className="sr-only"> {f.key}</span>
                        </Button>
                      </>
                    ) : null}
                  </TD>
                </TR>
              ))}
            </TBody>
          </Table>
        )}
      </Card>
      <CustomFieldDialog open={editing !== null} onClose={() => setEditing(null)} field={editing?.field} templates={templates} />
      <ConfirmItemDialog
        item={deleting}
        onClose={() => setDeleting(null)}
        mutation={remove}
        title={(f) => `Delete the field “${f.key}”?`}
        description="Values already stored in packages stay as they are; new packages can no longer set it. To stop using it for a while, make it inactive instead."
        confirmLabel="Delete field"
      />
    </>
  );
}
