"use client";

import { useState, type ReactNode } from "react";
import { errorMessage } from "@/components/lib/api-client";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { Input, Textarea } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { useConvertDocument, useDeleteDocument, type TTemplate, type TTemplateDocument } from "./query";

/* The template editor's sections: a collapsible panel, one document with its actions, the details form. */

export function Panel({ title, description, open, children }: { title: string; description?: string; open?: boolean; children: ReactNode }) {
  return (
    <details open={open} className="group rounded-xl border border-zinc-200 bg-white shadow-sm">
      <summary className="flex cursor-pointer list-none items-center justify-between gap-2 px-6 py-4 focus-visible:outline-2 focus-visible:outline-brand-600">
        <span>
          <span className="block text-base font-semibold text-zinc-900">{title}</span>
          {description ? <span className="block text-sm text-zinc-600">{description}</span> : null}
        </span>
        <span aria-hidden="true" className="text-zinc-400 transition-transform group-open:rotate-180">
          ▾
        </span>
      </summary>
      <div className="border-t border-zinc-100 px-6 py-5">{children}</div>
    </details>
  );
}

export function DocumentSection({
  template,
  doc,
  readOnly,
  children,
}: {
  template: TTemplate;
  doc: TTemplateDocument;
  readOnly: boolean;
  children: ReactNode;
}) {
  const remove = useDeleteDocument(template.id);
  const convert = useConvertDocument(template.id);
  const [asking, setAsking] = useState(false);
  const isDocx = doc.contentType !== "application/pdf";
  const fieldCount = template.fields.filter((f) => f.documentId === doc.id).length;
  return (
    <section aria-label={doc.name} className="space-y-3" data-testid="template-document">
      <div className="flex flex-wrap items-center justify-between gap-2 border-b border-zinc-100 pb-2">
        <div className="min-w-0">
          <h3 className="truncate text-sm font-semibold text-zinc-900">{doc.name}</h3>
          <p className="text-xs text-zinc-500">
            {doc.uploadState === "AWAITING_UPLOAD"
              ? "Waiting for the file…"
              : isDocx
                ? "Word document: convert it to PDF to place fields on it."
                : `${doc.pageCount ?? "?"} page${doc.pageCount === 1 ? "" : "s"}${doc.convertedFromDocx ? " · converted from Word" : ""} · ${fieldCount} field${fieldCount === 1 ? "" : "s"}`}
          </p>
        </div>
        <div className="flex gap-2">
          {isDocx && doc.uploadState === "UPLOADED" ? (
            <Button size="sm" disabled={readOnly} pending={convert.isPending} onClick={() => convert.mutate(doc.id)}>
              Convert to PDF
            </Button>
          ) : null}
          <Button variant="danger-ghost" size="sm" disabled={readOnly} onClick={() => setAsking(true)}>
            Remove
          </Button>
        </div>
      </div>
      {convert.isError ? <Alert tone="error">{errorMessage(convert.error)}</Alert> : null}
      {children}
      <ConfirmDialog
        open={asking}
        title={`Remove ${doc.name}?`}
        description={
          fieldCount > 0 ? `Its ${fieldCount} field${fieldCount === 1 ? "" : "s"} are removed with it.` : "The document is removed from this template."
        }
        confirmLabel="Remove document"
        pending={remove.isPending}
        error={errorMessage(remove.error)}
        onCancel={() => {
          remove.reset();
          setAsking(false);
        }}
        onConfirm={() => remove.mutate(doc.id, { onSuccess: () => setAsking(false) })}
      />
    </section>
  );
}

export function DetailsForm({
  template,
  readOnly,
  onSave,
}: {
  template: TTemplate;
  readOnly: boolean;
  onSave: (change: { name?: string; description?: string | null }, what: string) => void;
}) {
  const [name, setName] = useState(template.name);
  const [description, setDescription] = useState(template.description ?? "");
  return (
    <div className="space-y-4">
      <div className="space-y-1.5">
        <Label htmlFor="template-name">Name</Label>
        <Input
          id="template-name"
          value={name}
          maxLength={200}
          disabled={readOnly}
          onChange={(e) => setName(e.target.value)}
          onBlur={() => (name.trim() && name.trim() !== template.name ? onSave({ name: name.trim() }, "Name") : setName(template.name))}
        />
      </div>
      <div className="space-y-1.5">
        <Label htmlFor="template-description">
          Description <span className="font-normal text-zinc-500">(optional)</span>
        </Label>
        <Textarea
          id="template-description"
          value={description}
          maxLength={2000}
          disabled={readOnly}
          onChange={(e) => setDescription(e.target.value)}
          onBlur={() => {
            const next = description.trim() ? description.trim() : null;
            if (next !== template.description) onSave({ description: next }, "Description");
          }}
        />
      </div>
    </div>
  );
}
