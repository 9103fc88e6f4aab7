"use client";

import { useState } from "react";
import { errorMessage } from "@/components/lib/api-client";
import { Alert } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardHeader } from "@/components/ui/card";
import { ConfirmItemDialog } from "@/components/ui/confirm-dialog";
import { EmptyState } from "@/components/ui/empty-state";
import { CreateGroupDialog } from "./create-group-dialog";
import { ManageGroupDialog } from "./manage-group-dialog";
import { useDeleteSigningGroup, useSigningGroups, type TSigningGroup } from "./query";

const SHOWN_MEMBERS = 4;

export function SigningGroupsPanel({ canManage }: { canManage: boolean }) {
  const groups = useSigningGroups();
  const remove = useDeleteSigningGroup();
  const [creating, setCreating] = useState(false);
  // The id, not the object: the dialog shows the group as the list re-reads it after each change.
  const [editingId, setEditingId] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<TSigningGroup | null>(null);
  const list = groups.data?.signingGroups ?? [];
  const editing = list.find((g) => g.id === editingId) ?? null;

  return (
    <>
      <Card>
        <CardHeader
          title="Signing groups"
          description="A template role can name a group: any one of its members may sign for that role."
          actions={canManage ? <Button onClick={() => setCreating(true)}>New group</Button> : null}
        />
        {groups.isPending ? (
          <p className="px-6 py-10 text-center text-sm text-zinc-500">Loading signing groups…</p>
        ) : groups.isError ? (
          <div className="p-6">
            <Alert tone="error">{errorMessage(groups.error)}</Alert>
          </div>
        ) : list.length === 0 ? (
          <EmptyState
            title="No signing groups yet"
            description={
              canManage
                ? "Create a group, e.g. “Legal team”, and add the people who may sign for it. Then pick it for a role in a template."
                : "Members who can create templates set up signing groups here."
            }
            action={canManage ? <Button onClick={() => setCreating(true)}>New group</Button> : null}
          />
        ) : (
          <ul className="divide-y divide-zinc-100" aria-label="Signing groups">
            {list.map((g) => (
              <li key={g.id} className="flex flex-col gap-3 px-6 py-4 sm:flex-row sm:items-center sm:justify-between" data-testid="signing-group-row">
                <div className="min-w-0 space-y-1.5">
                  <p className="flex flex-wrap items-center gap-2">
                    <span className="font-medium break-words text-zinc-900">{g.name}</span>
                    <Badge tone="neutral">
                      {g.members.length} member{g.members.length === 1 ? "" : "s"}
                    </Badge>
                  </p>
                  {g.members.length ? (
                    <p className="text-sm break-words text-zinc-600">
                      {g.members
                        .slice(0, SHOWN_MEMBERS)
                        .map((m) => m.name ?? m.email)
                        .join(", ")}
                      {g.members.length > SHOWN_MEMBERS ? ` and ${g.members.length - SHOWN_MEMBERS} more` : ""}
                    </p>
                  ) : (
                    <p className="text-sm text-amber-700">No members: nobody can sign for this group yet.</p>
                  )}
                </div>
                {canManage ? (
                  <div className="flex shrink-0 gap-1">
                    <Button variant="secondary" size="sm" onClick={() => setEditingId(g.id)}>
                      Edit<span className="sr-only"> {g.name}</span>
                    </Button>
                    <Button variant="danger-ghost" size="sm" onClick={() => setDeleting(g)}>
                      Delete<span className="sr-only"> {g.name}</span>
                    </Button>
                  </div>
                ) : null}
              </li>
            ))}
          </ul>
        )}
      </Card>
      <CreateGroupDialog open={creating} onClose={() => setCreating(false)} />
      <ManageGroupDialog group={editing} onClose={() => setEditingId(null)} />
      <ConfirmItemDialog
        item={deleting}
        onClose={() => setDeleting(null)}
        mutation={remove}
        title={(group) => `Delete the group “${group.name}”?`}
        description="Template roles that name it become ordinary roles. Packages already sent are not changed."
        confirmLabel="Delete group"
      />
    </>
  );
}
