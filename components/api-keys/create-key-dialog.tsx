"use client";

import { useState, type FormEvent } from "react";
import { errorMessage, fieldErrors } from "@/components/lib/api-client";
import { browserTimeZone } from "@/components/lib/format";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Dialog, DialogFooter } from "@/components/ui/dialog";
import { Field } from "@/components/ui/field";
import { Input, Select } from "@/components/ui/input";
import { createKeyInput } from "./create-key-input";
import { useCreateApiKey, type TNewApiKey } from "./query";

export type TRoleOption = { id: string; name: string };
/** `isTest`: a test workspace, whose keys read fsk_test_… (docs/decisions/test-mode.md). */
export type TWorkspaceOption = { id: string; name: string; isDefault: boolean; isTest?: boolean };

type TProps = {
  open: boolean;
  onClose: () => void;
  onCreated: (key: TNewApiKey) => void;
  /** Roles holding API access: the only ones a key may act as. */
  roles: TRoleOption[];
  workspaces: TWorkspaceOption[];
};

function todayLocal(): string {
  const d = new Date();
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, "0")}-${String(d.getDate()).padStart(2, "0")}`;
}

export function CreateKeyDialog({ open, onClose, onCreated, roles, workspaces }: TProps) {
  return (
    <Dialog
      open={open}
      onClose={onClose}
      title="Create API key"
      description="A key acts with its role's permissions in one workspace, for your servers (never in browser code)."
    >
      <CreateKeyForm onCancel={onClose} onCreated={onCreated} roles={roles} workspaces={workspaces} />
    </Dialog>
  );
}

/** Mounted only while the dialog is open, so every opening starts from an empty form. */
function CreateKeyForm({ onCancel, onCreated, roles, workspaces }: Omit<TProps, "open" | "onClose"> & { onCancel: () => void }) {
  const create = useCreateApiKey();
  const timeZone = browserTimeZone();
  const [name, setName] = useState("");
  const [roleId, setRoleId] = useState(roles[0]?.id ?? "");
  const [workspaceId, setWorkspaceId] = useState((workspaces.find((w) => w.isDefault) ?? workspaces[0])?.id ?? "");
  const [expiresOn, setExpiresOn] = useState("");
  const details = fieldErrors(create.error);
  const general = create.error && Object.keys(details).length === 0 ? errorMessage(create.error) : null;

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    create.mutate(createKeyInput({ name, roleId, workspaceId, expiresOn }, timeZone), { onSuccess: (key) => onCreated(key) });
  }

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-5">
      {general ? (
        <Alert tone="error" title="Could not create the key">
          {general}
        </Alert>
      ) : null}
      {roles.length === 0 ? <Alert tone="warning">No role has API access. Give a role API access under Settings → Roles first.</Alert> : null}
      <Field label="Name" error={details.name} hint="What the key is for, e.g. “CRM integration”; not the name of another active key (case does not count).">
        {(p) => <Input {...p} value={name} onChange={(e) => setName(e.target.value)} maxLength={100} data-autofocus />}
      </Field>
      <Field label="Role" error={details.roleId} hint="Only roles with API access are offered.">
        {(p) => (
          <Select {...p} value={roleId} onChange={(e) => setRoleId(e.target.value)}>
            {roles.map((r) => (
              <option key={r.id} value={r.id}>
                {r.name}
              </option>
            ))}
          </Select>
        )}
      </Field>
      <Field label="Workspace" error={details.workspaceId} hint="The key works in this workspace only, for its whole life.">
        {(p) => (
          <Select {...p} value={workspaceId} onChange={(e) => setWorkspaceId(e.target.value)}>
            {workspaces.map((w) => (
              <option key={w.id} value={w.id}>
                {w.name}
                {w.isDefault ? " (default)" : ""}
                {w.isTest ? " (test: the key reads fsk_test_…)" : ""}
              </option>
            ))}
          </Select>
        )}
      </Field>
      <Field
        label="Expires on"
        optional
        error={details.expiresOn ?? details.timeZone}
        hint={`The key stops working at the end of this day, ${timeZone} time. Leave empty for a key that works until revoked.`}
      >
        {(p) => <Input {...p} type="date" min={todayLocal()} value={expiresOn} onChange={(e) => setExpiresOn(e.target.value)} />}
      </Field>
      <DialogFooter inset>
        <Button variant="secondary" onClick={onCancel} disabled={create.isPending}>
          Cancel
        </Button>
        <Button type="submit" pending={create.isPending} disabled={roles.length === 0 || workspaces.length === 0}>
          Create key
        </Button>
      </DialogFooter>
    </form>
  );
}
