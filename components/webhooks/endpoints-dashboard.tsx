"use client";

import Link from "next/link";
import { useState } from "react";
import { errorMessage } from "@/components/lib/api-client";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Card, CardHeader } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { TBody, TD, TH, THead, TR, Table } from "@/components/ui/table";
import { cn } from "@/components/ui/cn";
import { EndpointStateBadge } from "./badges";
import { CreateEndpointDialog } from "./create-endpoint-dialog";
import { TO_THE_SECOND, formatDateTime, formatRelative } from "@/components/lib/format";
import { formatMs, formatRate } from "./format";
import { useDashboard, type TCreatedEndpoint, type TDashboard } from "./query";
import { SecretOnceDialog } from "./secret-once-dialog";

type TRow = TDashboard["endpoints"][number];

/** Up to three subscribed events by name; more as a count, every name in the tooltip. */
function eventsLabel(events: string[]) {
  if (events.length === 15) return "All 15 events";
  return events.length <= 3 ? events.join(", ") : `${events.slice(0, 2).join(", ")} and ${events.length - 2} more`;
}

function LastDelivery({ row }: { row: TRow }) {
  const last = row.lastAttempt;
  if (!last) return <span className="text-zinc-500">Never</span>;
  const ok = last.responseStatus !== null && last.responseStatus >= 200 && last.responseStatus < 300;
  return (
    <span title={formatDateTime(last.at, TO_THE_SECOND)}>
      {formatRelative(last.at, TO_THE_SECOND)}
      <span className={cn("block text-xs", ok ? "text-emerald-700" : "text-red-700")}>
        {last.responseStatus !== null ? `HTTP ${last.responseStatus}` : (last.error ?? "No response")}
      </span>
    </span>
  );
}

/** On a phone, one card per endpoint: URL, state and the 24-hour figures stay in view without panning. */
function EndpointCard({ row }: { row: TRow }) {
  return (
    <li data-testid="endpoint-card" className={cn("px-4 py-4", row.state === "FAILING" ? "bg-red-50/70" : undefined)}>
      <div className="flex items-start justify-between gap-3">
        <div className="min-w-0">
          <Link href={`/webhooks/${row.id}`} className="block truncate font-medium text-zinc-900 hover:text-brand-700 hover:underline">
            {row.url}
          </Link>
          <p className="truncate text-xs text-zinc-500">
            {row.description ? `${row.description} · ` : null}
            {eventsLabel(row.events)}
          </p>
        </div>
        <EndpointStateBadge state={row.state} />
      </div>
      <dl className="mt-3 grid grid-cols-3 gap-2 text-xs">
        <div>
          <dt className="text-zinc-500">Success (24 h)</dt>
          <dd className="font-medium text-zinc-900 tabular-nums">{formatRate(row.successRate24h)}</dd>
        </div>
        <div>
          <dt className="text-zinc-500">p50 / p95</dt>
          <dd className="text-zinc-900 tabular-nums">
            {formatMs(row.p50Ms)} / {formatMs(row.p95Ms)}
          </dd>
        </div>
        <div>
          <dt className="text-zinc-500">Last delivery</dt>
          <dd className="text-zinc-900">
            <LastDelivery row={row} />
          </dd>
        </div>
      </dl>
      {row.state === "FAILING" ? (
        <p className="mt-2 text-xs font-medium text-red-700">
          {row.consecutiveFailures} consecutive failures. New events skip this endpoint. Fix the receiver, send a test event, then Resume.
        </p>
      ) : null}
    </li>
  );
}

/** `allowPrivateTargets`: the server's WEBHOOK_ALLOW_PRIVATE_TARGETS, so the URL hint says what registration accepts. */
export function EndpointsDashboard({ allowPrivateTargets }: { allowPrivateTargets: boolean }) {
  const dashboard = useDashboard();
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<TCreatedEndpoint | null>(null);
  const addButton = <Button onClick={() => setCreating(true)}>Add endpoint</Button>;
  const failing = dashboard.data?.endpoints.filter((e) => e.state === "FAILING") ?? [];

  return (
    <>
      {failing.length > 0 ? (
        <Alert tone="error" title={`${failing.length === 1 ? "1 endpoint is" : `${failing.length} endpoints are`} Failing`} className="mb-6">
          After 10 consecutive failed attempts, new events skip an endpoint. Open it, read what the receiver answered in the delivery log, fix the receiver,
          send a test event, then <strong>Resume</strong> — resuming clears the failure counter, and you can replay what was exhausted.
        </Alert>
      ) : null}
      <Card>
        <CardHeader
          title={dashboard.data ? `Endpoints in ${dashboard.data.workspace.name}` : "Endpoints"}
          description="Figures cover the last 24 hours. Success rate counts attempts answered with a 2xx."
          actions={dashboard.data && dashboard.data.endpoints.length > 0 ? addButton : null}
        />
        {dashboard.isPending ? (
          <p className="px-6 py-10 text-center text-sm text-zinc-500">Loading endpoints…</p>
        ) : dashboard.isError ? (
          <div className="p-6">
            <Alert tone="error">{errorMessage(dashboard.error)}</Alert>
          </div>
        ) : dashboard.data.endpoints.length === 0 ? (
          <EmptyState
            title="No webhook endpoints yet"
            description={
              <>
                Webhooks tell your systems when something happens — a package is sent, a recipient signs, a package completes — by POSTing a signed JSON message
                to a URL you choose, with retries when your server is down. Read{" "}
                <Link href="/api-reference/webhooks" className="font-medium text-brand-700 underline">
                  how webhooks work and how to verify signatures
                </Link>
                , then add your first endpoint.
              </>
            }
            action={addButton}
          />
        ) : (
          <>
            <ul aria-label="Webhook endpoints" className="divide-y divide-zinc-100 md:hidden">
              {dashboard.data.endpoints.map((row) => (
                <EndpointCard key={row.id} row={row} />
              ))}
            </ul>
            <div className="hidden md:block">
              <Table aria-label="Webhook endpoints">
                <THead>
                  <TR>
                    <TH>Endpoint</TH>
                    <TH>State</TH>
                    <TH className="text-right whitespace-nowrap">Success (24 h)</TH>
                    <TH className="text-right">p50 / p95</TH>
                    <TH>Last delivery</TH>
                  </TR>
                </THead>
                <TBody>
                  {dashboard.data.endpoints.map((row) => (
                    <TR key={row.id} data-testid="endpoint-row" className={row.state === "FAILING" ? "bg-red-50/70" : undefined}>
                      <TD className="max-w-sm">
                        <Link href={`/webhooks/${row.id}`} className="block truncate font-medium text-zinc-900 hover:text-brand-700 hover:underline">
                          {row.url}
                        </Link>
                        <p className="truncate text-xs text-zinc-500" title={row.events.join("\n")}>
                          {row.description ? `${row.description} · ` : null}
                          {eventsLabel(row.events)}
                        </p>
                        {row.state === "FAILING" ? (
                          <p className="mt-1 text-xs font-medium text-red-700">
                            New events skip this endpoint. Fix the receiver, send a test event, then Resume.{" "}
                            <Link href={`/webhooks/${row.id}`} className="underline">
                              Open
                            </Link>
                          </p>
                        ) : null}
                      </TD>
                      <TD>
                        <EndpointStateBadge state={row.state} />
                        <p className={cn("mt-1 text-xs", row.consecutiveFailures > 0 ? "text-red-700" : "text-zinc-500")}>
                          {row.consecutiveFailures} consecutive failure{row.consecutiveFailures === 1 ? "" : "s"}
                        </p>
                      </TD>
                      <TD className="text-right tabular-nums">
                        <span className="font-medium text-zinc-900">{formatRate(row.successRate24h)}</span>
                        <span className="block text-xs text-zinc-500">
                          {row.deliveryCount24h} deliver{row.deliveryCount24h === 1 ? "y" : "ies"}
                        </span>
                      </TD>
                      <TD className="text-right tabular-nums whitespace-nowrap">
                        {formatMs(row.p50Ms)} / {formatMs(row.p95Ms)}
                      </TD>
                      <TD className="whitespace-nowrap">
                        <LastDelivery row={row} />
                      </TD>
                    </TR>
                  ))}
                </TBody>
              </Table>
            </div>
          </>
        )}
      </Card>
      <CreateEndpointDialog allowPrivateTargets={allowPrivateTargets} open={creating} onClose={() => setCreating(false)} onCreated={setCreated} />
      <SecretOnceDialog secret={created?.secret ?? null} title="Endpoint added" onDone={() => setCreated(null)} />
    </>
  );
}
