"use client";

import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { CopyField } from "@/components/ui/copy-field";
import { TO_THE_SECOND, formatDateTime } from "@/components/lib/format";

/** A signing secret, shown once: it must be acknowledged (no Escape, no backdrop) and cannot be shown again. */
export function SecretOnceDialog({
  secret,
  title,
  oldSignsUntil,
  onDone,
}: {
  secret: string | null;
  title: string;
  oldSignsUntil?: string | null;
  onDone: () => void;
}) {
  return (
    <Dialog
      open={secret !== null}
      onClose={onDone}
      dismissible={false}
      title={title}
      description="Copy the signing secret now and store it with your receiver. It is shown only this once; Foliosign keeps it encrypted and will not display it again."
      footer={<Button onClick={onDone}>I have stored the secret</Button>}
    >
      {secret ? (
        <div className="space-y-3">
          <Alert tone="warning" title="Copy it now: it will not be shown again.">
            Without it your receiver cannot verify deliveries; if it is lost, rotate the secret to get a new one.
          </Alert>
          <CopyField label="Signing secret" value={secret} testId="signing-secret" />
          {oldSignsUntil ? (
            <Alert tone="info">
              The old secret keeps signing beside the new one until <strong>{formatDateTime(oldSignsUntil, TO_THE_SECOND)}</strong>, so your receiver can switch
              without losing a delivery.
            </Alert>
          ) : null}
        </div>
      ) : null}
    </Dialog>
  );
}
