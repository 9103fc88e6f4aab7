"use client";

import Link from "next/link";
import { formatDateTime } from "@/components/lib/format";
import { errorMessage } from "@/components/lib/api-client";
import { Alert } from "@/components/ui/alert";
import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { KIND_LABELS, MailStatusBadge, TestMailBadge } from "./mail-badges";
import { useMailMessage } from "./query";

/**
 * One message: who, what, its delivery status, the HTML part in an iframe with every permission withheld
 * (sandbox="" — no scripts, no forms, no navigation of this page) and its links as plain, clickable text, so a
 * fresh install without a mail server can follow them.
 */
export function MailDetail({ messageId }: { messageId: string }) {
  const q = useMailMessage(messageId);
  if (q.isError) return <Alert tone="error">{errorMessage(q.error)}</Alert>;
  if (q.isPending) return <p className="text-sm text-zinc-500">Loading the message…</p>;
  const m = q.data;
  return (
    <div className="space-y-4">
      <p className="text-sm">
        <Link href="/mail" className="text-brand-700 underline-offset-2 hover:underline">
          ← All messages
        </Link>
      </p>
      <Card>
        <CardHeader
          title={m.subject}
          description={KIND_LABELS[m.kind]}
          actions={
            <span className="flex items-center gap-1">
              <MailStatusBadge status={m.status} />
              {m.test ? <TestMailBadge /> : null}
            </span>
          }
        />
        <CardBody>
          <dl className="grid gap-x-6 gap-y-2 text-sm sm:grid-cols-[10rem_1fr]">
            <dt className="text-zinc-500">To</dt>
            <dd className="break-all">{m.to.name ? `${m.to.name} <${m.to.email}>` : m.to.email}</dd>
            <dt className="text-zinc-500">Queued</dt>
            <dd>{formatDateTime(m.createdAt)}</dd>
            {m.sentAt ? (
              <>
                <dt className="text-zinc-500">{m.status === "KEPT" ? "Kept" : "Sent"}</dt>
                <dd>{formatDateTime(m.sentAt)}</dd>
              </>
            ) : null}
            <dt className="text-zinc-500">Attempts</dt>
            <dd>{m.attempts}</dd>
            {m.nextAttemptAt && m.status === "QUEUED" ? (
              <>
                <dt className="text-zinc-500">Next attempt</dt>
                <dd>{formatDateTime(m.nextAttemptAt)}</dd>
              </>
            ) : null}
            {m.lastError ? (
              <>
                <dt className="text-zinc-500">Last error</dt>
                <dd className="break-words text-red-700">{m.lastError}</dd>
              </>
            ) : null}
            {m.serverResponse ? (
              <>
                <dt className="text-zinc-500">Server answer</dt>
                <dd className="break-words">{m.serverResponse}</dd>
              </>
            ) : null}
          </dl>
        </CardBody>
      </Card>
      <Card>
        <CardHeader
          title="Links"
          description={
            m.status === "SENT" || m.status === "FAILED"
              ? "Signing links are removed from the stored copy once the mail server has the message: they let anyone sign."
              : "Open a link to act as the recipient would."
          }
        />
        <CardBody>
          {m.links.length === 0 ? (
            <p className="text-sm text-zinc-500">This message has no links.</p>
          ) : (
            <ul className="space-y-2 text-sm" aria-label="Links in this message">
              {m.links.map((l) => (
                <li key={l.url}>
                  <span className="font-medium text-zinc-900">{l.text || "Link"}: </span>
                  <a href={l.url} className="break-all text-brand-700 underline underline-offset-2">
                    {l.url}
                  </a>
                </li>
              ))}
            </ul>
          )}
        </CardBody>
      </Card>
      <Card>
        <CardHeader title="Preview" description="The HTML part, as a mail client shows it." />
        <iframe title={`Preview of “${m.subject}”`} sandbox="" srcDoc={m.html} className="h-[32rem] w-full rounded-b-lg border-0 bg-zinc-100" />
      </Card>
      <Card>
        <CardHeader title="Text part" />
        <CardBody>
          <pre className="whitespace-pre-wrap break-words text-sm text-zinc-800">{m.text}</pre>
        </CardBody>
      </Card>
    </div>
  );
}
