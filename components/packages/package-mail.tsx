"use client";

import Link from "next/link";
import { errorMessage } from "@/components/lib/api-client";
import { formatDateTime, formatRelative } from "@/components/lib/format";
import { KIND_LABELS, MailStatusBadge } from "@/components/mail/mail-badges";
import { Alert } from "@/components/ui/alert";
import { CardBody } from "@/components/ui/card";
import { usePackageMail, type TPackageMailList } from "./query";

type TMessage = TPackageMailList["messages"][number];

/** What happened to a message, in words: when it left, or why and until when it waits. */
function delivery(m: TMessage): string {
  if (m.status === "SENT") return `Sent ${formatDateTime(m.sentAt)}`;
  if (m.status === "KEPT") return `Kept in the outbox ${formatDateTime(m.sentAt ?? m.createdAt)}`;
  if (m.status === "FAILED") return `Gave up after ${m.attempts} ${m.attempts === 1 ? "attempt" : "attempts"}`;
  if (m.attempts > 0 && m.nextAttemptAt) return `Attempt ${m.attempts} failed; next ${formatRelative(m.nextAttemptAt)}`;
  return `Queued ${formatDateTime(m.createdAt)}`;
}

/**
 * The package page's mail panel: every message about this package (invitations, reminders, notices, the
 * completed copies), oldest first, with its delivery status, attempts and last error; each opens on /mail.
 */
export function PackageMail({ packageId }: { packageId: string }) {
  const mail = usePackageMail(packageId);
  if (mail.isPending) {
    return (
      <CardBody>
        <p className="text-sm text-zinc-500">Loading…</p>
      </CardBody>
    );
  }
  if (mail.isError) {
    return (
      <CardBody>
        <Alert tone="error" title="The mail could not be loaded">
          {errorMessage(mail.error)}
        </Alert>
      </CardBody>
    );
  }
  const { messages } = mail.data;
  if (messages.length === 0) {
    return (
      <CardBody>
        <p className="text-sm text-zinc-500">No mail yet. Invitations are queued when the package is sent, and each recipient&apos;s when their turn comes.</p>
      </CardBody>
    );
  }
  return (
    <ol className="divide-y divide-zinc-100">
      {messages.map((m) => (
        <li key={m.id} className="space-y-1 px-6 py-3" data-testid="mail-row">
          <div className="flex flex-wrap items-center justify-between gap-2">
            <Link href={`/mail/${encodeURIComponent(m.id)}`} className="text-sm font-medium text-zinc-900 underline-offset-2 hover:underline">
              {KIND_LABELS[m.kind]}
              <span className="sr-only"> to {m.to.email}</span>
            </Link>
            <MailStatusBadge status={m.status} />
          </div>
          <p className="text-sm break-all text-zinc-600">{m.to.name ? `${m.to.name} · ${m.to.email}` : m.to.email}</p>
          <p className="text-xs text-zinc-500">
            {delivery(m)}
            {m.attempts > 0 && m.status !== "FAILED" ? ` · ${m.attempts} ${m.attempts === 1 ? "attempt" : "attempts"}` : ""}
          </p>
          {m.lastError && m.status !== "SENT" ? <p className="text-xs break-words text-red-700">Last error: {m.lastError}</p> : null}
        </li>
      ))}
    </ol>
  );
}
