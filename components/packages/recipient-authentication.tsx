"use client";

import { useState } from "react";
import { errorMessage } from "@/components/lib/api-client";
import { formatDateTime } from "@/components/lib/format";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { useUnlockRecipient } from "./authentication-query";
import type { TPackage } from "./query";
import { authenticationLabel } from "./recipient-authentication-input";

type TRecipientSession = TPackage["recipientSessions"][number];

/**
 * Under a recipient on the package page: how they prove who they are, the identity the sender asserted, and
 * when too many wrong codes locked their link, that state and "Unlock" (asked first).
 */
export function RecipientAuthentication({ packageId, session, canSend }: { packageId: string; session: TRecipientSession; canSend: boolean }) {
  const [asking, setAsking] = useState(false);
  const unlock = useUnlockRecipient(packageId);
  const { method, locked } = session.authentication;
  const who = session.name ?? session.email ?? "this recipient";
  return (
    <div className="-mt-1 space-y-1 text-sm text-zinc-600" data-testid="recipient-authentication">
      <p className="flex flex-wrap items-center gap-x-2 gap-y-1">
        <span>
          Identity check: <span className="text-zinc-900">{authenticationLabel(method)}</span>
        </span>
        {locked ? <Badge tone="danger">Locked</Badge> : null}
      </p>
      {session.identity ? (
        <p className="break-words">
          Identity asserted by the sender: <span className="text-zinc-900">{session.identity.method}</span>
          {session.identity.assertionId ? (
            <>
              , assertion <span className="font-mono text-xs break-all">{session.identity.assertionId}</span>
            </>
          ) : null}
          {session.identity.authenticatedAt ? `, ${formatDateTime(session.identity.authenticatedAt)}` : null}
        </p>
      ) : null}
      {locked ? (
        <div className="flex flex-wrap items-center gap-2">
          <p className="text-red-700">Too many wrong codes: {who} cannot sign until you unlock the link.</p>
          <Button size="sm" variant="secondary" onClick={() => setAsking(true)} disabled={!canSend}>
            Unlock
          </Button>
        </div>
      ) : null}
      <ConfirmDialog
        open={asking}
        title={`Unlock signing for ${who}?`}
        description="Their link works again, with the same identity check and 5 new tries. Unlock only if you know it was them trying: ask them first."
        confirmLabel="Unlock"
        destructive={false}
        pending={unlock.isPending}
        error={unlock.isError ? errorMessage(unlock.error) : null}
        onCancel={() => {
          unlock.reset();
          setAsking(false);
        }}
        onConfirm={() => unlock.mutate(session.id, { onSuccess: () => setAsking(false) })}
      />
    </div>
  );
}
