"use client";

import { useState, type FormEvent } from "react";
import { errorMessage, fieldErrors } from "@/components/lib/api-client";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Dialog, DialogFooter } from "@/components/ui/dialog";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { useCreateSigningGroup } from "./query";

type TRow = { email: string; name: string };

export function CreateGroupDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  return (
    <Dialog open={open} onClose={onClose} size="lg" title="New signing group" description="Anyone in the group can sign for a template role that names it.">
      <CreateGroupForm onDone={onClose} />
    </Dialog>
  );
}

function CreateGroupForm({ onDone }: { onDone: () => void }) {
  const create = useCreateSigningGroup();
  const [name, setName] = useState("");
  const [rows, setRows] = useState<TRow[]>([{ email: "", name: "" }]);
  const details = fieldErrors(create.error);
  const general = create.error && Object.keys(details).length === 0 ? errorMessage(create.error) : null;
  const setRow = (i: number, changes: Partial<TRow>) => setRows((list) => list.map((r, j) => (j === i ? { ...r, ...changes } : r)));

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    // Blank rows are the form's spare lines, not members.
    const members = rows.filter((r) => r.email.trim() || r.name.trim()).map((r) => ({ email: r.email, name: r.name.trim() || null }));
    create.mutate({ name, members }, { onSuccess: onDone });
  }

  // Row i of the form is member index i of the body only while no blank row precedes it; map errors accordingly.
  const filledIndex = (i: number) => rows.slice(0, i).filter((r) => r.email.trim() || r.name.trim()).length;

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-5">
      {general ? <Alert tone="error">{general}</Alert> : null}
      <Field label="Group name" error={details.name}>
        {(p) => <Input {...p} value={name} maxLength={200} data-autofocus placeholder="e.g. Legal team" onChange={(e) => setName(e.target.value)} />}
      </Field>
      <fieldset className="space-y-3">
        <legend className="mb-1 text-sm font-medium text-zinc-800">Members</legend>
        {details.members ? <p className="text-sm text-red-700">{details.members[0]}</p> : null}
        {rows.map((row, i) => {
          const k = filledIndex(i);
          return (
            <div key={i} className="grid grid-cols-1 gap-2 rounded-md border border-zinc-200 p-3 sm:grid-cols-[1fr_1fr_auto] sm:items-start sm:border-0 sm:p-0">
              <Field label={`Email of member ${i + 1}`} error={details[`members.${k}.email`]}>
                {(p) => <Input {...p} type="email" value={row.email} placeholder="name@example.com" onChange={(e) => setRow(i, { email: e.target.value })} />}
              </Field>
              <Field label="Name" optional error={details[`members.${k}.name`]}>
                {(p) => <Input {...p} value={row.name} onChange={(e) => setRow(i, { name: e.target.value })} />}
              </Field>
              <div className="sm:pt-6">
                <Button variant="ghost" size="sm" disabled={rows.length === 1} onClick={() => setRows((list) => list.filter((_, j) => j !== i))}>
                  Remove<span className="sr-only"> member {i + 1}</span>
                </Button>
              </div>
            </div>
          );
        })}
        <Button variant="secondary" size="sm" onClick={() => setRows((list) => [...list, { email: "", name: "" }])}>
          Add another person
        </Button>
      </fieldset>
      <DialogFooter inset>
        <Button variant="secondary" onClick={onDone} disabled={create.isPending}>
          Cancel
        </Button>
        <Button type="submit" pending={create.isPending}>
          Create group
        </Button>
      </DialogFooter>
    </form>
  );
}
