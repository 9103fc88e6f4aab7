"use client";

import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { CopyField } from "@/components/ui/copy-field";
import { Dialog } from "@/components/ui/dialog";
import type { TNewApiKey } from "./query";

/** The only time the key's value is ever shown. It cannot be dismissed by accident (no Escape, no backdrop). */
export function KeyCreatedDialog({ apiKey, onDone }: { apiKey: TNewApiKey | null; onDone: () => void }) {
  return (
    <Dialog
      open={apiKey !== null}
      onClose={onDone}
      dismissible={false}
      title="Your new API key"
      description={apiKey ? <>The key “{apiKey.name}” is ready.</> : null}
      footer={<Button onClick={onDone}>I have copied the key</Button>}
    >
      {apiKey ? (
        <div className="space-y-4">
          <Alert tone="warning" title="Copy it now: it will not be shown again.">
            Foliosign stores only a hash of the key. If you lose it, revoke it and create a new one.
          </Alert>
          <CopyField label="API key" value={apiKey.value} testId="new-api-key-value" autoFocus />
        </div>
      ) : null}
    </Dialog>
  );
}
