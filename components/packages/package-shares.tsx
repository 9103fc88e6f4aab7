"use client";

import { useMemo, useState, type FormEvent } from "react";
import { errorMessage, fieldErrors } from "@/components/lib/api-client";
import { formatDateTime } from "@/components/lib/format";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { CardBody } from "@/components/ui/card";
import { ConfirmItemDialog } from "@/components/ui/confirm-dialog";
import { Select } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { useMembers, usePackageShares, useSharePackage, useUnsharePackage, type TPackage, type TPackageShare } from "./query";

type TShareItem = TPackageShare & { id: string };

/**
 * The package page's "Shared with" panel: the members who see this package although their role does not show
 * them every package. Its owner and members who see every package add (a picker of the organisation's other
 * members) and remove (after a confirmation); everyone else reads the list.
 */
export function PackageShares({ pkg }: { pkg: Pick<TPackage, "id" | "ownerUserId"> }) {
  const shares = usePackageShares(pkg.id);
  const members = useMembers();
  const add = useSharePackage(pkg.id);
  const remove = useUnsharePackage(pkg.id);
  const [choice, setChoice] = useState("");
  const [removing, setRemoving] = useState<TShareItem | null>(null);
  const canManage = shares.data?.canManage ?? false;
  const candidates = useMemo(() => {
    const taken = new Set([pkg.ownerUserId, ...(shares.data?.shares.map((s) => s.userId) ?? [])]);
    return (members.data ?? []).filter((m) => !taken.has(m.userId));
  }, [members.data, shares.data, pkg.ownerUserId]);

  if (shares.isPending) {
    return (
      <CardBody>
        <p className="text-sm text-zinc-500">Loading…</p>
      </CardBody>
    );
  }
  if (shares.isError) {
    return (
      <CardBody>
        <Alert tone="error" title="The shares could not be loaded">
          {errorMessage(shares.error)}
        </Alert>
      </CardBody>
    );
  }

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!choice) return;
    add.mutate(choice, { onSuccess: () => setChoice("") });
  };
  const list = shares.data.shares;

  return (
    <>
      {list.length === 0 ? (
        <CardBody>
          <p className="text-sm text-zinc-500" data-testid="shares-empty">
            Not shared with anyone yet. It is seen by its owner and by members whose role shows every package.
          </p>
        </CardBody>
      ) : (
        <ul className="divide-y divide-zinc-100" aria-label="Shared with">
          {list.map((s) => (
            <li key={s.userId} className="flex items-start justify-between gap-3 px-6 py-3" data-testid="share-row">
              <div className="min-w-0">
                <p className="text-sm font-medium break-words text-zinc-900">{s.name}</p>
                <p className="text-sm break-all text-zinc-600">{s.email}</p>
                <p className="text-xs text-zinc-500">
                  Shared {s.sharedBy ? <span className="break-all">by {s.sharedBy.name} · </span> : null}
                  <time dateTime={s.sharedAt}>{formatDateTime(s.sharedAt)}</time>
                </p>
              </div>
              {canManage ? (
                <Button
                  size="sm"
                  variant="danger-ghost"
                  className="shrink-0"
                  onClick={() => setRemoving({ ...s, id: s.userId })}
                  aria-label={`Stop sharing with ${s.name}`}
                >
                  Remove
                </Button>
              ) : null}
            </li>
          ))}
        </ul>
      )}
      {canManage ? (
        <form onSubmit={submit} className="space-y-2 border-t border-zinc-100 px-6 py-4">
          <Label htmlFor="share-member">Share with a member</Label>
          <div className="flex flex-col gap-2 sm:flex-row">
            <Select
              id="share-member"
              className="min-w-0 sm:flex-1"
              value={choice}
              onChange={(e) => {
                add.reset();
                setChoice(e.target.value);
              }}
              disabled={members.isPending || candidates.length === 0}
            >
              <option value="">{members.isPending ? "Loading members…" : candidates.length === 0 ? "No other member to add" : "Choose a member"}</option>
              {candidates.map((m) => (
                <option key={m.userId} value={m.userId}>
                  {m.name} ({m.email})
                </option>
              ))}
            </Select>
            <Button type="submit" variant="secondary" pending={add.isPending} disabled={!choice}>
              Add
            </Button>
          </div>
          {add.isError ? <Alert tone="error">{fieldErrors(add.error).userId?.[0] ?? errorMessage(add.error)}</Alert> : null}
          <p className="text-xs text-zinc-500">They see this package, its documents and its timeline, even if their role does not show every package.</p>
        </form>
      ) : (
        <p className="border-t border-zinc-100 px-6 py-3 text-xs text-zinc-500">
          Only the package&apos;s owner and members who can see every package can change this.
        </p>
      )}
      <ConfirmItemDialog
        item={removing}
        onClose={() => setRemoving(null)}
        mutation={remove}
        title={(s) => `Stop sharing with ${s.name}?`}
        description="They no longer see this package unless they own it or their role shows every package. You can share it again later."
        confirmLabel="Stop sharing"
      />
    </>
  );
}
