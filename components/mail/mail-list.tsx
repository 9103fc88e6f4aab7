"use client";

import Link from "next/link";
import { useState } from "react";
import { formatDateTime } from "@/components/lib/format";
import { errorMessage } from "@/components/lib/api-client";
import { Alert } from "@/components/ui/alert";
import { Card, CardHeader } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { ListFilterSelect, ListPager } from "@/components/ui/filtered-list";
import { TBody, TD, TH, THead, TR, Table } from "@/components/ui/table";
import type { TMailStatus } from "@/server/db/schema/mail";
import { KIND_LABELS, MailStatusBadge, TestMailBadge } from "./mail-badges";
import { useMailList } from "./query";

const STATUS_OPTIONS: [TMailStatus, string][] = [
  ["QUEUED", "Queued"],
  ["SENT", "Sent"],
  ["FAILED", "Failed"],
  ["KEPT", "In outbox"],
];

/**
 * The Mail page: the workspace's messages, newest first, 25 a page; a row opens the message. `owner`: the
 * outbox notice names the server setting (SMTP_URL) for an owner, and whom to ask for a member.
 */
export function MailList({ owner }: { owner: boolean }) {
  const [page, setPage] = useState(1);
  const [status, setStatus] = useState<TMailStatus | undefined>(undefined);
  const list = useMailList(page, status);
  const data = list.data;
  return (
    <div className="space-y-4">
      {data?.transport === "outbox" ? (
        <Alert tone="info" title="No mail server is configured">
          Messages are kept here instead of being sent. Open one to see it and follow its links.{" "}
          {owner ? (
            <>
              Set <code>SMTP_URL</code> to send mail.
            </>
          ) : (
            "Your organisation’s owner can set up a mail server."
          )}
        </Alert>
      ) : null}
      <Card>
        <CardHeader title="Messages" description="Invitations, reminders and notices of this workspace, newest first." />
        <ListFilterSelect
          label="Status"
          value={status}
          options={STATUS_OPTIONS}
          onChange={(v) => {
            setPage(1);
            setStatus(v);
          }}
        />
        {list.isError ? (
          <div className="p-6">
            <Alert tone="error">{errorMessage(list.error)}</Alert>
          </div>
        ) : list.isPending ? (
          <p className="p-6 text-sm text-zinc-500">Loading messages…</p>
        ) : data && data.messages.length === 0 ? (
          <EmptyState title="No messages yet" description="Mail appears here when packages are sent, reminded, completed, declined, voided or expire." />
        ) : (
          <div className="overflow-x-auto">
            <Table aria-label="Messages">
              <THead>
                <TR>
                  <TH>Message</TH>
                  <TH className="hidden lg:table-cell">Kind</TH>
                  <TH>Status</TH>
                  <TH className="hidden text-right xl:table-cell">Attempts</TH>
                  <TH className="hidden md:table-cell">Time</TH>
                </TR>
              </THead>
              <TBody>
                {data!.messages.map((m) => (
                  <TR key={m.id}>
                    {/* On a phone this cell carries the message: subject, recipient, and kind and time below. */}
                    <TD className="max-w-[14rem] sm:max-w-[22rem] xl:max-w-[28rem]">
                      <Link href={`/mail/${encodeURIComponent(m.id)}`} className="block truncate font-medium text-brand-700 underline-offset-2 hover:underline">
                        {m.subject}
                      </Link>
                      <div className="truncate text-xs text-zinc-600" title={m.to.email}>
                        {m.to.name ? `${m.to.name} · ${m.to.email}` : m.to.email}
                      </div>
                      <div className="truncate text-xs text-zinc-500 lg:hidden">
                        {KIND_LABELS[m.kind]}
                        <span className="md:hidden"> · {formatDateTime(m.sentAt ?? m.createdAt)}</span>
                      </div>
                      {m.lastError ? (
                        <div className="truncate text-xs text-red-700" title={m.lastError}>
                          {m.lastError}
                        </div>
                      ) : null}
                    </TD>
                    <TD className="hidden whitespace-nowrap lg:table-cell">{KIND_LABELS[m.kind]}</TD>
                    <TD className="whitespace-nowrap">
                      <MailStatusBadge status={m.status} />
                      {m.test ? <TestMailBadge /> : null}
                    </TD>
                    <TD className="hidden text-right tabular-nums xl:table-cell">{m.attempts}</TD>
                    <TD className="hidden whitespace-nowrap text-zinc-600 md:table-cell">{formatDateTime(m.sentAt ?? m.createdAt)}</TD>
                  </TR>
                ))}
              </TBody>
            </Table>
          </div>
        )}
        {data ? <ListPager noun="Messages" page={data.page} pageSize={data.pageSize} totalCount={data.totalCount} onPage={setPage} /> : null}
      </Card>
    </div>
  );
}
