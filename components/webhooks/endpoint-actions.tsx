"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { errorMessage } from "@/components/lib/api-client";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { useDeleteEndpoint, useRotateSecret, useUpdateEndpoint, type TEndpointSummary, type TRotatedSecret } from "./query";
import { SecretOnceDialog } from "./secret-once-dialog";

type TAsk = "pause" | "rotate" | "delete" | null;

/** Pause / Resume, Rotate secret and Delete — each destructive one asks first. */
export function EndpointActions({ endpoint }: { endpoint: TEndpointSummary }) {
  const router = useRouter();
  const update = useUpdateEndpoint(endpoint.id);
  const rotate = useRotateSecret(endpoint.id);
  const remove = useDeleteEndpoint(endpoint.id);
  const [ask, setAsk] = useState<TAsk>(null);
  const [resumed, setResumed] = useState<number | null>(null);
  const [rotated, setRotated] = useState<TRotatedSecret | null>(null);
  const paused = !endpoint.enabled;
  const failing = endpoint.state === "FAILING";

  function resume() {
    const before = endpoint.consecutiveFailures;
    update.mutate({ enabled: true }, { onSuccess: () => setResumed(before) });
  }

  return (
    <>
      <div className="flex flex-wrap gap-2">
        {paused || failing ? (
          <Button onClick={resume} pending={update.isPending && ask === null}>
            Resume
          </Button>
        ) : null}
        {!paused ? (
          <Button variant="secondary" onClick={() => setAsk("pause")}>
            Pause
          </Button>
        ) : null}
        <Button variant="secondary" onClick={() => setAsk("rotate")}>
          Rotate secret
        </Button>
        <Button variant="danger-ghost" onClick={() => setAsk("delete")}>
          Delete
        </Button>
      </div>
      {resumed !== null ? (
        <Alert tone="success" className="mt-3">
          Resumed. The failure counter was cleared{resumed > 0 ? ` (it was ${resumed})` : ""}; new events are delivered to this endpoint again.
        </Alert>
      ) : null}
      {update.isError && ask === null ? (
        <Alert tone="error" className="mt-3">
          {errorMessage(update.error)}
        </Alert>
      ) : null}

      <ConfirmDialog
        open={ask === "pause"}
        title="Pause this endpoint?"
        description="No new events are sent to it. Deliveries already queued for it end as EXHAUSTED and are not retried (you can replay them after resuming). Failures are not counted while paused."
        confirmLabel="Pause endpoint"
        pending={update.isPending}
        error={update.isError ? errorMessage(update.error) : null}
        onCancel={() => setAsk(null)}
        onConfirm={() =>
          update.mutate(
            { enabled: false },
            {
              onSuccess: () => {
                setResumed(null);
                setAsk(null);
              },
            },
          )
        }
      />
      <ConfirmDialog
        open={ask === "rotate"}
        destructive={false}
        title="Rotate the signing secret?"
        description="A new secret is created and shown once. For 24 hours both secrets sign every delivery (two v1= entries), so you can update your receiver without losing events; then only the new one signs."
        confirmLabel="Rotate secret"
        pending={rotate.isPending}
        error={rotate.isError ? errorMessage(rotate.error) : null}
        onCancel={() => setAsk(null)}
        onConfirm={() =>
          rotate.mutate(undefined, {
            onSuccess: (r) => {
              setAsk(null);
              setRotated(r);
            },
          })
        }
      />
      <ConfirmDialog
        open={ask === "delete"}
        title="Delete this endpoint?"
        description={
          <>
            <span className="block break-all font-mono text-xs text-zinc-900">{endpoint.url}</span>
            <span className="mt-2 block">It stops receiving events at once, and its delivery log is deleted with it. This cannot be undone.</span>
          </>
        }
        confirmLabel="Delete endpoint"
        pending={remove.isPending}
        error={remove.isError ? errorMessage(remove.error) : null}
        onCancel={() => setAsk(null)}
        onConfirm={() => remove.mutate(undefined, { onSuccess: () => router.push("/webhooks") })}
      />
      <SecretOnceDialog
        secret={rotated?.secret ?? null}
        title="New signing secret"
        oldSignsUntil={rotated?.previousSecretExpiresAt}
        onDone={() => setRotated(null)}
      />
    </>
  );
}
