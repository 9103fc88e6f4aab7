"use client";

import { useState, type FormEvent } from "react";
import { errorMessage, fieldErrors } from "@/components/lib/api-client";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { useAddSigningGroupMember, useRemoveSigningGroupMember, useRenameSigningGroup, type TSigningGroup } from "./query";

/** Rename a group and add or remove its members; each change is saved at once. */
export function ManageGroupDialog({ group, onClose }: { group: TSigningGroup | null; onClose: () => void }) {
  return (
    <Dialog
      open={group !== null}
      onClose={onClose}
      size="lg"
      title={group ? `Edit “${group.name}”` : "Edit group"}
      footer={
        <Button variant="secondary" onClick={onClose}>
          Done
        </Button>
      }
    >
      {group ? (
        <div className="space-y-6">
          <RenameForm group={group} />
          <Members group={group} />
          <AddMemberForm groupId={group.id} />
        </div>
      ) : null}
    </Dialog>
  );
}

function RenameForm({ group }: { group: TSigningGroup }) {
  const rename = useRenameSigningGroup();
  const [name, setName] = useState(group.name);
  const details = fieldErrors(rename.error);
  const general = rename.error && Object.keys(details).length === 0 ? errorMessage(rename.error) : null;
  function onSubmit(event: FormEvent) {
    event.preventDefault();
    rename.mutate({ id: group.id, name });
  }
  return (
    <form onSubmit={onSubmit} noValidate className="space-y-2">
      {general ? <Alert tone="error">{general}</Alert> : null}
      <div className="flex flex-col gap-2 sm:flex-row sm:items-start">
        <div className="flex-1">
          <Field label="Group name" error={details.name}>
            {(p) => <Input {...p} value={name} maxLength={200} onChange={(e) => setName(e.target.value)} />}
          </Field>
        </div>
        <div className="sm:pt-6">
          <Button type="submit" variant="secondary" pending={rename.isPending} disabled={name.trim() === group.name}>
            Rename
          </Button>
        </div>
      </div>
    </form>
  );
}

function Members({ group }: { group: TSigningGroup }) {
  const remove = useRemoveSigningGroupMember();
  return (
    <section aria-label="Members" className="space-y-2">
      <h3 className="text-sm font-medium text-zinc-800">Members</h3>
      {remove.isError ? <Alert tone="error">{errorMessage(remove.error)}</Alert> : null}
      {group.members.length === 0 ? (
        <p className="rounded-md border border-dashed border-zinc-300 px-3 py-4 text-center text-sm text-zinc-500">
          No one yet. Add the people who may sign for this group below.
        </p>
      ) : (
        <ul className="divide-y divide-zinc-100 rounded-md border border-zinc-200">
          {group.members.map((m) => (
            <li key={m.id} className="flex items-center justify-between gap-3 px-3 py-2">
              <span className="min-w-0">
                <span className="block truncate text-sm font-medium text-zinc-900">{m.name ?? m.email}</span>
                {m.name ? <span className="block truncate text-xs text-zinc-500">{m.email}</span> : null}
              </span>
              <Button
                variant="danger-ghost"
                size="sm"
                pending={remove.isPending && remove.variables?.memberId === m.id}
                onClick={() => remove.mutate({ groupId: group.id, memberId: m.id })}
              >
                Remove<span className="sr-only"> {m.email}</span>
              </Button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function AddMemberForm({ groupId }: { groupId: string }) {
  const add = useAddSigningGroupMember();
  const [email, setEmail] = useState("");
  const [name, setName] = useState("");
  const details = fieldErrors(add.error);
  const general = add.error && Object.keys(details).length === 0 ? errorMessage(add.error) : null;
  function onSubmit(event: FormEvent) {
    event.preventDefault();
    add.mutate(
      { groupId, email, name: name.trim() || null },
      {
        onSuccess: () => {
          setEmail("");
          setName("");
        },
      },
    );
  }
  return (
    <form onSubmit={onSubmit} noValidate className="space-y-2">
      <h3 className="text-sm font-medium text-zinc-800">Add a person</h3>
      {general ? <Alert tone="error">{general}</Alert> : null}
      <div className="grid grid-cols-1 gap-2 sm:grid-cols-[1fr_1fr_auto] sm:items-start">
        <Field label="Email" error={details.email}>
          {(p) => <Input {...p} type="email" value={email} placeholder="name@example.com" onChange={(e) => setEmail(e.target.value)} />}
        </Field>
        <Field label="Name" optional error={details.name}>
          {(p) => <Input {...p} value={name} onChange={(e) => setName(e.target.value)} />}
        </Field>
        <div className="sm:pt-6">
          <Button type="submit" pending={add.isPending}>
            Add
          </Button>
        </div>
      </div>
    </form>
  );
}
