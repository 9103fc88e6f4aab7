"use client";

import { useState } from "react";
import { errorMessage } from "@/components/lib/api-client";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { MailStatusBadge } from "./mail-badges";
import { useMailMessage, useSendTestMail } from "./query";

const OUTCOME = {
  QUEUED: "Waiting for the worker…",
  SENT: "The mail server accepted it. Check your inbox.",
  FAILED: "The mail server refused it; see the error.",
  KEPT: "No mail server is configured, so it was kept in the outbox (see Mail).",
} as const;

/** Settings → Mail: queue a test message to yourself and watch its delivery status change. */
export function SendTestMail({ email, transport }: { email: string; transport: "smtp" | "outbox" }) {
  const send = useSendTestMail();
  const [id, setId] = useState<string | null>(null);
  const message = useMailMessage(id);
  const m = message.data;
  return (
    <Card>
      <CardHeader
        title="Test message"
        description={
          transport === "smtp"
            ? `Mail is sent through the SMTP server of SMTP_URL. Send a test message to ${email}.`
            : `No SMTP server is configured (SMTP_URL): messages are kept in the outbox on the Mail page. A test message to ${email} shows how.`
        }
      />
      <CardBody className="space-y-4">
        <Button pending={send.isPending} onClick={() => send.mutate(undefined, { onSuccess: (r) => setId(r.id) })}>
          Send test mail
        </Button>
        {send.isError ? <Alert tone="error">{errorMessage(send.error)}</Alert> : null}
        {m ? (
          <div className="space-y-2 text-sm" aria-live="polite" data-testid="test-mail-status">
            <p className="flex flex-wrap items-center gap-2">
              <MailStatusBadge status={m.status} />
              <span>{OUTCOME[m.status]}</span>
              {m.attempts > 0 ? <span className="text-zinc-500">Attempts: {m.attempts}</span> : null}
            </p>
            {m.lastError ? <p className="break-words text-red-700">{m.lastError}</p> : null}
            <p>
              <a className="text-brand-700 underline underline-offset-2" href={`/mail/${encodeURIComponent(m.id)}`}>
                Open the message
              </a>
            </p>
          </div>
        ) : null}
      </CardBody>
    </Card>
  );
}
