"use client";

import { formatDateTime } from "@/components/lib/format";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { CopyField } from "@/components/ui/copy-field";
import { Dialog } from "@/components/ui/dialog";

export type TShownInvite = { email: string; path: string; expiresAt: string };

/** The invite link is shown once (only its hash is stored); it cannot be dismissed by accident. */
export function InviteLinkDialog({ invite, onDone }: { invite: TShownInvite | null; onDone: () => void }) {
  return (
    <Dialog
      open={invite !== null}
      onClose={onDone}
      dismissible={false}
      title="Send this invite link"
      description={invite ? <>Send it to {invite.email} yourself. They choose their password on the page it opens.</> : null}
      footer={<Button onClick={onDone}>Done</Button>}
    >
      {invite ? (
        <div className="space-y-4">
          <Alert tone="warning" title="Copy it now: it will not be shown again.">
            The link works once, until {formatDateTime(invite.expiresAt)}. If it is lost, remove the member and add them again.
          </Alert>
          <CopyField label="Invite link" value={`${window.location.origin}${invite.path}`} testId="invite-link" autoFocus />
        </div>
      ) : null}
    </Dialog>
  );
}
