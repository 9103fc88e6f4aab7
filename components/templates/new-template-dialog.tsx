"use client";

import { useRouter } from "next/navigation";
import { useState, type FormEvent } from "react";
import { errorMessage, fieldErrors } from "@/components/lib/api-client";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { Field } from "@/components/ui/field";
import { Input, Textarea } from "@/components/ui/input";
import { useCreateTemplate } from "./query";

/** Name and describe a new template, then open it in the editor to add documents, roles and fields. */
export function NewTemplateDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const router = useRouter();
  const create = useCreateTemplate();
  const [name, setName] = useState("");
  const [description, setDescription] = useState("");
  const errors = fieldErrors(create.error);
  const general = create.isError && Object.keys(errors).length === 0 ? errorMessage(create.error) : null;

  function close() {
    create.reset();
    setName("");
    setDescription("");
    onClose();
  }

  function submit(e: FormEvent) {
    e.preventDefault();
    create.mutate(
      { name, description: description.trim() ? description : null },
      { onSuccess: (template) => router.push(`/templates/${encodeURIComponent(template.id)}`) },
    );
  }

  return (
    <Dialog
      open={open}
      onClose={close}
      dismissible={!create.isPending}
      title="New template"
      description="A template holds the documents, the signer roles and the fields from which packages are created."
      footer={
        <>
          <Button variant="secondary" onClick={close} disabled={create.isPending}>
            Cancel
          </Button>
          <Button type="submit" form="new-template" pending={create.isPending}>
            Create and open
          </Button>
        </>
      }
    >
      <form id="new-template" onSubmit={submit} className="space-y-4" noValidate>
        {general ? <Alert tone="error">{general}</Alert> : null}
        <Field label="Name" error={errors.name}>
          {(p) => <Input {...p} placeholder="e.g. Residential lease" value={name} onChange={(e) => setName(e.target.value)} data-autofocus />}
        </Field>
        <Field label="Description" optional error={errors.description} hint="Shown to your team in the templates list.">
          {(p) => <Textarea {...p} value={description} onChange={(e) => setDescription(e.target.value)} />}
        </Field>
      </form>
    </Dialog>
  );
}
