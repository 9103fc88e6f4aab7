"use client";

import { useState, type FormEvent } from "react";
import { errorMessage } from "@/components/lib/api-client";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { Input } from "@/components/ui/input";
import type { TAuthenticationMethod } from "@/components/packages/recipient-authentication-input";
import { roleColour } from "./field-geometry";
import { useDeleteRole, type TTemplate, type TTemplateRole } from "./query";
import { RoleAuthentication } from "./role-authentication";

type TRolesPanelProps = {
  template: TTemplate;
  readOnly: boolean;
  onCreate: (name: string) => Promise<boolean>;
  onUpdate: (role: TTemplateRole, change: { name?: string; order?: number; authentication?: { method: TAuthenticationMethod } }, what: string) => void;
};

/** The signers in signing order: add, rename (saved on leaving the input), move up or down, remove after asking. */
export function RolesPanel({ template, readOnly, onCreate, onUpdate }: TRolesPanelProps) {
  const [name, setName] = useState("");
  const [removing, setRemoving] = useState<TTemplateRole | null>(null);
  const remove = useDeleteRole(template.id);
  const roles = template.roles;

  async function add(e: FormEvent) {
    e.preventDefault();
    if (!name.trim()) return;
    if (await onCreate(name.trim())) setName("");
  }

  const fieldsOf = (role: TTemplateRole) => template.fields.filter((f) => f.roleIndex === role.roleIndex).length;

  return (
    <div className="space-y-3">
      {roles.length === 0 ? <p className="text-sm text-zinc-500">No role yet. Add one for each person who signs, in signing order.</p> : null}
      <ol className="space-y-2" aria-label="Roles in signing order">
        {roles.map((role, i) => (
          <li key={role.id} className="flex flex-wrap items-center gap-2" data-testid="role-row">
            <span className="w-5 shrink-0 text-right text-xs text-zinc-500 tabular-nums" aria-hidden="true">
              {i + 1}.
            </span>
            <span className="size-3 shrink-0 rounded-sm" style={{ backgroundColor: roleColour(role.roleIndex) }} aria-hidden="true" />
            <RoleName key={`${role.id}-${role.name}`} role={role} readOnly={readOnly} onRename={(n) => onUpdate(role, { name: n }, "name")} />
            <Button
              variant="ghost"
              size="sm"
              className="px-2"
              aria-label={`Move ${role.name} up`}
              disabled={readOnly || i === 0}
              onClick={() => onUpdate(role, { order: i - 1 }, "order")}
            >
              ↑
            </Button>
            <Button
              variant="ghost"
              size="sm"
              className="px-2"
              aria-label={`Move ${role.name} down`}
              disabled={readOnly || i === roles.length - 1}
              onClick={() => onUpdate(role, { order: i + 1 }, "order")}
            >
              ↓
            </Button>
            <Button variant="danger-ghost" size="sm" className="px-2" aria-label={`Remove ${role.name}`} disabled={readOnly} onClick={() => setRemoving(role)}>
              ✕
            </Button>
            <RoleAuthentication
              roleName={role.name}
              method={role.authentication.method}
              readOnly={readOnly}
              onChange={(method) => onUpdate(role, { authentication: { method } }, "identity check")}
            />
          </li>
        ))}
      </ol>
      <form onSubmit={add} className="flex gap-2">
        <label htmlFor="new-role" className="sr-only">
          New role name
        </label>
        <Input
          id="new-role"
          placeholder="e.g. Tenant"
          value={name}
          maxLength={100}
          disabled={readOnly}
          onChange={(e) => setName(e.target.value)}
          className="h-9"
        />
        <Button type="submit" variant="secondary" size="sm" className="h-9" disabled={readOnly || !name.trim()}>
          Add role
        </Button>
      </form>
      <ConfirmDialog
        open={removing !== null}
        title={`Remove the role ${removing?.name ?? ""}?`}
        description={
          removing
            ? fieldsOf(removing) > 0
              ? `Its ${fieldsOf(removing)} field${fieldsOf(removing) === 1 ? "" : "s"} will be removed with it, and the roles after it move up one place in signing order.`
              : "The roles after it move up one place in signing order."
            : null
        }
        confirmLabel="Remove role"
        pending={remove.isPending}
        error={errorMessage(remove.error)}
        onCancel={() => {
          remove.reset();
          setRemoving(null);
        }}
        onConfirm={() => {
          if (!removing) return;
          remove.mutate(removing.roleIndex, { onSuccess: () => setRemoving(null) });
        }}
      />
    </div>
  );
}

function RoleName({ role, readOnly, onRename }: { role: TTemplateRole; readOnly: boolean; onRename: (name: string) => void }) {
  const [value, setValue] = useState(role.name);
  const commit = () => {
    if (value.trim() && value.trim() !== role.name) onRename(value.trim());
    else setValue(role.name);
  };
  return (
    <Input
      aria-label={`Name of role ${role.roleIndex + 1}`}
      value={value}
      maxLength={100}
      disabled={readOnly}
      onChange={(e) => setValue(e.target.value)}
      onBlur={commit}
      onKeyDown={(e) => {
        if (e.key === "Enter") {
          e.preventDefault();
          commit();
        }
      }}
      className="h-8 min-w-0 flex-1"
    />
  );
}
