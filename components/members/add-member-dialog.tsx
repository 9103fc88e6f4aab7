"use client";

import { useState, type FormEvent } from "react";
import { errorMessage, fieldErrors } from "@/components/lib/api-client";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Dialog, DialogFooter } from "@/components/ui/dialog";
import { Field } from "@/components/ui/field";
import { Input, Select } from "@/components/ui/input";
import { useAddMember, type TNewMember } from "./query";

type TProps = {
  open: boolean;
  onClose: () => void;
  onAdded: (member: TNewMember, email: string) => void;
  roles: { id: string; name: string }[];
};

export function AddMemberDialog({ open, onClose, onAdded, roles }: TProps) {
  return (
    <Dialog open={open} onClose={onClose} title="Add member" description="Members sign in with their email and password and act with their role.">
      <AddMemberForm onCancel={onClose} onAdded={onAdded} roles={roles} />
    </Dialog>
  );
}

function AddMemberForm({ onCancel, onAdded, roles }: Omit<TProps, "open" | "onClose"> & { onCancel: () => void }) {
  const add = useAddMember();
  const [name, setName] = useState("");
  const [email, setEmail] = useState("");
  const [roleId, setRoleId] = useState(roles.find((r) => r.name === "Sender")?.id ?? roles[0]?.id ?? "");
  const [method, setMethod] = useState<"password" | "invite">("invite");
  const [password, setPassword] = useState("");
  const details = fieldErrors(add.error);
  const general = add.error && Object.keys(details).length === 0 ? errorMessage(add.error) : null;

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    const input = method === "password" ? { method, name, email, roleId, password } : { method, name, email, roleId };
    add.mutate(input, { onSuccess: (member) => onAdded(member, email) });
  }

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-5">
      {general ? <Alert tone="error">{general}</Alert> : null}
      <Field label="Name" error={details.name}>
        {(p) => <Input {...p} value={name} onChange={(e) => setName(e.target.value)} autoComplete="off" data-autofocus />}
      </Field>
      <Field label="Email" error={details.email}>
        {(p) => <Input {...p} type="email" value={email} onChange={(e) => setEmail(e.target.value)} autoComplete="off" />}
      </Field>
      <Field label="Role" error={details.roleId}>
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
      <fieldset>
        <legend className="mb-2 text-sm font-medium text-zinc-800">How they get in</legend>
        <div className="space-y-2">
          <label className="flex items-start gap-3 rounded-md border border-zinc-200 px-3 py-2.5 hover:bg-zinc-50">
            <input type="radio" name="method" className="mt-1 accent-brand-600" checked={method === "invite"} onChange={() => setMethod("invite")} />
            <span>
              <span className="block text-sm font-medium text-zinc-900">One-time invite link</span>
              <span className="block text-xs text-zinc-500">You get a link to send them; they choose their password. It works once, for 7 days.</span>
            </span>
          </label>
          <label className="flex items-start gap-3 rounded-md border border-zinc-200 px-3 py-2.5 hover:bg-zinc-50">
            <input type="radio" name="method" className="mt-1 accent-brand-600" checked={method === "password"} onChange={() => setMethod("password")} />
            <span>
              <span className="block text-sm font-medium text-zinc-900">Initial password</span>
              <span className="block text-xs text-zinc-500">You set a password now and tell them yourself.</span>
            </span>
          </label>
        </div>
      </fieldset>
      {method === "password" ? (
        <Field label="Initial password" error={details.password} hint="At least 10 characters.">
          {(p) => <Input {...p} type="password" autoComplete="new-password" value={password} onChange={(e) => setPassword(e.target.value)} />}
        </Field>
      ) : null}
      <DialogFooter inset>
        <Button variant="secondary" onClick={onCancel} disabled={add.isPending}>
          Cancel
        </Button>
        <Button type="submit" pending={add.isPending}>
          Add member
        </Button>
      </DialogFooter>
    </form>
  );
}
