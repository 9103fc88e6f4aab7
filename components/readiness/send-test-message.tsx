"use client";

import { useMutation } from "@tanstack/react-query";
import { apiFetch, errorMessage } from "@/components/lib/api-client";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import type { TReadinessTestMessage } from "@/server/domain/readiness/schemas";

/** The SMTP check's button: one real message to the signed-in owner, sent only when pressed. */
export function SendTestMessage({ email }: { email: string }) {
  const send = useMutation({ mutationFn: () => apiFetch<TReadinessTestMessage>("/api/app/readiness/test-message", { method: "POST" }) });
  const result = send.data;
  return (
    <div className="space-y-3 border-t border-zinc-100 pt-3">
      <div className="flex flex-wrap items-center gap-3">
        <Button variant="secondary" size="sm" pending={send.isPending} onClick={() => send.mutate()}>
          Send a test message
        </Button>
        <span className="text-sm break-all text-zinc-600">to {email}</span>
      </div>
      {send.isError ? <Alert tone="error">{errorMessage(send.error)}</Alert> : null}
      {result ? (
        <Alert tone={result.status === "ok" ? "success" : "error"} title={result.status === "ok" ? "Sent" : "Not sent"}>
          <p className="break-words">{result.message}</p>
        </Alert>
      ) : null}
    </div>
  );
}
