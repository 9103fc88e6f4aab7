"use client";

import { useState, type FormEvent } from "react";
import { slugFromName } from "@/common/workspace-slug";
import { errorMessage, fieldErrors } from "@/components/lib/api-client";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Dialog, DialogFooter } from "@/components/ui/dialog";
import { Field } from "@/components/ui/field";
import { Checkbox, Input } from "@/components/ui/input";
import { useCreateWorkspace, useRenameWorkspace, type TWorkspace } from "./query";

type TProps = { open: boolean; onClose: () => void; /** Rename this one; create a new one when absent. */ workspace?: TWorkspace };

export function WorkspaceDialog({ open, onClose, workspace }: TProps) {
  return (
    <Dialog
      open={open}
      onClose={onClose}
      title={workspace ? `Rename “${workspace.name}”` : "New workspace"}
      description={
        workspace
          ? "Keys bound to this workspace keep working: its id does not change."
          : "A workspace holds its own packages, templates, webhooks and keys, e.g. an office, a region or a team."
      }
    >
      <WorkspaceForm workspace={workspace} onDone={onClose} />
    </Dialog>
  );
}

function WorkspaceForm({ workspace, onDone }: { workspace?: TWorkspace; onDone: () => void }) {
  const create = useCreateWorkspace();
  const rename = useRenameWorkspace();
  const mutation = workspace ? rename : create;
  const [name, setName] = useState(workspace?.name ?? "");
  const [slug, setSlug] = useState(workspace?.slug ?? "");
  const [slugEdited, setSlugEdited] = useState(Boolean(workspace));
  const [test, setTest] = useState(false);
  const details = fieldErrors(mutation.error);
  const general = mutation.error && Object.keys(details).length === 0 ? errorMessage(mutation.error) : null;

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (workspace) rename.mutate({ id: workspace.id, name, slug }, { onSuccess: onDone });
    else create.mutate({ name, slug, test }, { onSuccess: onDone });
  }

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-5">
      {general ? <Alert tone="error">{general}</Alert> : null}
      <Field label="Name" error={details.name} hint="Unique in your organisation, whatever the case (“Sales” and “sales” are the same name).">
        {(p) => (
          <Input
            {...p}
            value={name}
            data-autofocus
            maxLength={100}
            onChange={(e) => {
              setName(e.target.value);
              if (!slugEdited) setSlug(slugFromName(e.target.value));
            }}
          />
        )}
      </Field>
      <Field label="Slug" error={details.slug} hint="Lower-case letters, digits and hyphens; unique in your organisation.">
        {(p) => (
          <Input
            {...p}
            value={slug}
            maxLength={50}
            className="font-mono"
            onChange={(e) => {
              setSlugEdited(true);
              setSlug(e.target.value);
            }}
          />
        )}
      </Field>
      {workspace ? null : (
        <label className="flex items-start gap-2 text-sm text-zinc-700">
          <Checkbox className="mt-0.5" checked={test} onChange={(e) => setTest(e.target.checked)} data-testid="workspace-test-checkbox" />
          <span>
            <span className="font-medium text-zinc-900">Test workspace</span>
            <span className="block text-xs text-zinc-500">
              For trying Foliosign out and for integration tests: keys read fsk_test_…, no mail leaves this instance, nothing counts against your plan, and
              sealed files are marked “TEST — not a valid signature”.
            </span>
          </span>
        </label>
      )}
      <DialogFooter inset>
        <Button variant="secondary" onClick={onDone} disabled={mutation.isPending}>
          Cancel
        </Button>
        <Button type="submit" pending={mutation.isPending}>
          {workspace ? "Save" : "Create workspace"}
        </Button>
      </DialogFooter>
    </form>
  );
}
