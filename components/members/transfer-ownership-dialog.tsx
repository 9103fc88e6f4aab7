"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useState, type FormEvent } from "react";
import { apiFetch, errorMessage, fieldErrors } from "@/components/lib/api-client";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import type { TMember } from "./query";

/**
 * Hands the organisation to `member`, confirmed with the owner's own password. Afterwards this browser's member
 * is an Admin: the page is rendered again without the owner's actions.
 */
export function TransferOwnershipDialog({ member, onClose }: { member: TMember | null; onClose: () => void }) {
  const router = useRouter();
  const queryClient = useQueryClient();
  const [password, setPassword] = useState("");
  const transfer = useMutation({
    mutationFn: ({ userId, password: pw }: { userId: string; password: string }) =>
      apiFetch(`/api/app/members/${encodeURIComponent(userId)}/ownership`, { method: "POST", body: { password: pw } }),
    onSuccess: async () => {
      await queryClient.invalidateQueries();
      router.refresh();
    },
  });
  const details = fieldErrors(transfer.error);
  const general = transfer.error && Object.keys(details).length === 0 ? errorMessage(transfer.error) : null;

  function close() {
    transfer.reset();
    setPassword("");
    onClose();
  }

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (member) transfer.mutate({ userId: member.userId, password }, { onSuccess: close });
  }

  return (
    <Dialog
      open={member !== null}
      onClose={close}
      dismissible={!transfer.isPending}
      size="sm"
      title={`Make ${member?.name ?? ""} the owner?`}
      description={
        <>
          {member?.email} gets everything only the owner can do: API keys, members, security and the server&apos;s settings. You stay a member with the Admin
          role. Only the new owner can give it back.
        </>
      }
      footer={
        <>
          <Button variant="secondary" onClick={close} disabled={transfer.isPending} data-autofocus>
            Cancel
          </Button>
          <Button type="submit" form="transfer-ownership" variant="danger" pending={transfer.isPending}>
            Make owner
          </Button>
        </>
      }
    >
      <form id="transfer-ownership" onSubmit={onSubmit} noValidate className="space-y-4">
        {general ? <Alert tone="error">{general}</Alert> : null}
        <Field label="Your password" error={details.password} hint="To confirm it is you.">
          {(p) => <Input {...p} type="password" autoComplete="current-password" value={password} onChange={(e) => setPassword(e.target.value)} />}
        </Field>
      </form>
    </Dialog>
  );
}
