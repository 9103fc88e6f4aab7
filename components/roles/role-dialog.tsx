"use client";

import { useState, type FormEvent } from "react";
import { errorMessage, fieldErrors } from "@/components/lib/api-client";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Dialog, DialogFooter } from "@/components/ui/dialog";
import { Field } from "@/components/ui/field";
import { Checkbox, Input } from "@/components/ui/input";
import { PERMISSION_LABELS, TEMPLATE_ACCESS_LABELS, type TPermissionFlag } from "./permissions";
import { useCreateRole, useUpdateRole, type TRole } from "./query";

type TProps = { open: boolean; onClose: () => void; /** Edit this custom role; create one when absent. */ role?: TRole };

export function RoleDialog({ open, onClose, role }: TProps) {
  return (
    <Dialog
      open={open}
      onClose={onClose}
      size="lg"
      title={role ? `Edit “${role.name}”` : "New role"}
      description="Members and API keys act with their role's permissions."
    >
      <RoleForm role={role} onDone={onClose} />
    </Dialog>
  );
}

type TValues = Record<TPermissionFlag, boolean> & { name: string; templateAccess: TRole["templateAccess"] };

function RoleForm({ role, onDone }: { role?: TRole; onDone: () => void }) {
  const create = useCreateRole();
  const update = useUpdateRole();
  const mutation = role ? update : create;
  const [values, setValues] = useState<TValues>({
    name: role?.name ?? "",
    apiAccess: role?.apiAccess ?? false,
    canSendPackages: role?.canSendPackages ?? false,
    canViewAllPackages: role?.canViewAllPackages ?? false,
    canManageWebhooks: role?.canManageWebhooks ?? false,
    templateAccess: role?.templateAccess ?? "USE",
  });
  const details = fieldErrors(mutation.error);
  const general = mutation.error && Object.keys(details).length === 0 ? errorMessage(mutation.error) : null;
  const losesApiAccess = role !== undefined && role.apiAccess && !values.apiAccess && role.keyCount > 0;

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (role) update.mutate({ id: role.id, ...values }, { onSuccess: onDone });
    else create.mutate(values, { onSuccess: onDone });
  }

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-5">
      {general ? <Alert tone="error">{general}</Alert> : null}
      <Field label="Name" error={details.name} hint="Unique in your organisation, whatever the case (“Sales” and “sales” are the same name).">
        {(p) => <Input {...p} value={values.name} maxLength={100} data-autofocus onChange={(e) => setValues((v) => ({ ...v, name: e.target.value }))} />}
      </Field>
      <fieldset className="space-y-3">
        <legend className="mb-2 text-sm font-medium text-zinc-800">Permissions</legend>
        {PERMISSION_LABELS.map((p) => (
          <label key={p.key} className="flex items-start gap-3 rounded-md border border-zinc-200 px-3 py-2.5 hover:bg-zinc-50">
            <Checkbox className="mt-0.5" checked={values[p.key]} onChange={(e) => setValues((v) => ({ ...v, [p.key]: e.target.checked }))} />
            <span>
              <span className="block text-sm font-medium text-zinc-900">{p.label}</span>
              <span className="block text-xs text-zinc-500">{p.description}</span>
            </span>
          </label>
        ))}
      </fieldset>
      {losesApiAccess ? (
        <Alert tone="warning" title="Keys will stop working">
          This role has {role.keyCount} active API key{role.keyCount === 1 ? "" : "s"}. Without API access they are refused (401) from their next request.
        </Alert>
      ) : null}
      <fieldset>
        <legend className="mb-2 text-sm font-medium text-zinc-800">Template access</legend>
        <div className="flex flex-wrap gap-3">
          {(["USE", "CREATE"] as const).map((level) => (
            <label key={level} className="flex items-center gap-2 rounded-md border border-zinc-200 px-3 py-2 text-sm hover:bg-zinc-50">
              <input
                type="radio"
                name="templateAccess"
                value={level}
                className="accent-brand-600"
                checked={values.templateAccess === level}
                onChange={() => setValues((v) => ({ ...v, templateAccess: level }))}
              />
              {TEMPLATE_ACCESS_LABELS[level]}
              <span className="font-mono text-xs text-zinc-500">{level}</span>
            </label>
          ))}
        </div>
        {details.templateAccess ? <p className="mt-1 text-sm text-red-700">{details.templateAccess[0]}</p> : null}
      </fieldset>
      <DialogFooter inset>
        <Button variant="secondary" onClick={onDone} disabled={mutation.isPending}>
          Cancel
        </Button>
        <Button type="submit" pending={mutation.isPending}>
          {role ? "Save role" : "Create role"}
        </Button>
      </DialogFooter>
    </form>
  );
}
