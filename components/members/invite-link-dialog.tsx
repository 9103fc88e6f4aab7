"use client";

import { formatDateTime } from "@/components/lib/format";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { CopyField } from "@/components/ui/copy-field";
import { Dialog } from "@/components/ui/dialog";

/** A one-time link to show: an invitation, or a password reset (docs/decisions/passwords.md). */
export type TShownInvite = { email: string; path: string; expiresAt: string; purpose: "invite" | "reset" };

/** The link is shown once (only its hash is stored); it cannot be dismissed by accident. */
export function InviteLinkDialog({ invite, onDone }: { invite: TShownInvite | null; onDone: () => void }) {
  const reset = invite?.purpose === "reset";
  return (
    <Dialog
      open={invite !== null}
      onClose={onDone}
      dismissible={false}
      title={reset ? "Send this password reset link" : "Send this invite link"}
      description={
        invite ? (
          reset ? (
            <>Send it to {invite.email} yourself. They choose a new password on the page it opens; every session of theirs then ends.</>
          ) : (
            <>Send it to {invite.email} yourself. They choose their password on the page it opens.</>
          )
        ) : null
      }
      footer={<Button onClick={onDone}>Done</Button>}
    >
      {invite ? (
        <div className="space-y-4">
          <Alert tone="warning" title="Copy it now: it will not be shown again.">
            The link works once, until {formatDateTime(invite.expiresAt)}.{reset ? " Their current password keeps working until the link is used." : null} If it
            is lost, make a new one on the Members page: the old one then stops working.
          </Alert>
          <CopyField label={reset ? "Reset link" : "Invite link"} value={`${window.location.origin}${invite.path}`} testId="invite-link" autoFocus />
        </div>
      ) : null}
    </Dialog>
  );
}
