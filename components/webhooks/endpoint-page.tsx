"use client";

import Link from "next/link";
import { useState } from "react";
import { errorMessage } from "@/components/lib/api-client";
import { Alert } from "@/components/ui/alert";
import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { EndpointStateBadge } from "./badges";
import { DeliveryDetail } from "./delivery-detail";
import { DeliveryLog } from "./delivery-log";
import { EndpointActions } from "./endpoint-actions";
import { EndpointSettings } from "./endpoint-settings";
import { TO_THE_SECOND, formatDateTime } from "@/components/lib/format";
import { formatMs, formatRate } from "./format";
import { HealthChart } from "./health-chart";
import { pollInterval, useDeliveryLog, useEndpointSummary, type TLogFilters } from "./query";
import { SendTestEvent } from "./send-test-event";

function Figure({ label, value, hint, tone, testId }: { label: string; value: string; hint?: string; tone?: "bad"; testId?: string }) {
  return (
    <div className="rounded-xl border border-zinc-200 bg-white px-4 py-3 shadow-sm">
      <p className="text-xs font-medium text-zinc-500">{label}</p>
      <p
        className={tone === "bad" ? "mt-1 text-xl font-semibold text-red-700 tabular-nums" : "mt-1 text-xl font-semibold text-zinc-900 tabular-nums"}
        data-testid={testId}
      >
        {value}
      </p>
      {hint ? <p className="text-xs text-zinc-500">{hint}</p> : null}
    </div>
  );
}

/** /webhooks/[endpointId]: state and figures, actions, test events, the chart, the log and one delivery in detail. */
export function EndpointPage({ endpointId }: { endpointId: string }) {
  const [filters, setFilters] = useState<TLogFilters>({ page: 1 });
  const [selected, setSelected] = useState<string | null>(null);
  const log = useDeliveryLog(endpointId, filters);
  const poll = pollInterval(log.data?.waiting);
  const summary = useEndpointSummary(endpointId, poll);
  const e = summary.data;

  if (summary.isError) return <Alert tone="error">{errorMessage(summary.error)}</Alert>;
  if (!e) return <p className="py-10 text-center text-sm text-zinc-500">Loading endpoint…</p>;
  const h = e.health;
  return (
    <div className="space-y-6">
      <nav aria-label="Breadcrumb" className="text-sm">
        <Link href="/webhooks" className="text-brand-700 hover:underline">
          ← Webhooks
        </Link>
      </nav>
      <header className="flex flex-wrap items-start justify-between gap-4">
        <div className="min-w-0 space-y-1">
          <div className="flex items-center gap-3">
            <h1 className="min-w-0 text-2xl font-semibold tracking-tight wrap-anywhere text-zinc-900">{e.url}</h1>
            <span data-testid="endpoint-state">
              <EndpointStateBadge state={e.state} />
            </span>
          </div>
          <p className="text-sm wrap-anywhere text-zinc-600">
            {e.description ? `${e.description} · ` : null}
            {e.events.length === 15 ? "All 15 events" : `${e.events.length} of 15 events`} · workspace {e.workspace.name} · added{" "}
            {formatDateTime(e.createdAt, TO_THE_SECOND)}
          </p>
        </div>
        <EndpointActions endpoint={e} />
      </header>

      {e.state === "FAILING" ? (
        <Alert tone="error" title="This endpoint is Failing">
          {e.consecutiveFailures} consecutive attempts failed, so new events skip it. Look at the latest attempts below for what your receiver answered, fix it,
          check it with a test event, then Resume: that clears the counter. Deliveries that ran out of attempts can then be replayed.
        </Alert>
      ) : e.state === "PAUSED" ? (
        <Alert tone="warning" title="This endpoint is paused">
          No events are sent to it and queued deliveries were dropped (EXHAUSTED). Resume it to receive events again.
        </Alert>
      ) : null}

      <div className="grid grid-cols-2 gap-3 md:grid-cols-4">
        <Figure
          label="Success rate (24 h)"
          value={formatRate(h?.successRate24h ?? null)}
          hint={`${h?.attemptCount24h ?? 0} attempt${h?.attemptCount24h === 1 ? "" : "s"}`}
        />
        <Figure label="Deliveries (24 h)" value={String(h?.deliveryCount24h ?? 0)} />
        <Figure label="Response time p50 / p95" value={`${formatMs(h?.p50Ms)} / ${formatMs(h?.p95Ms)}`} />
        <Figure
          label="Consecutive failures"
          value={String(e.consecutiveFailures)}
          hint="10 makes the endpoint Failing"
          tone={e.consecutiveFailures > 0 ? "bad" : undefined}
          testId="consecutive-failures"
        />
      </div>

      <Card>
        <CardHeader
          title="Send test event"
          description="Prove your receiver accepts a signed event right now: the sample is signed, delivered and logged like a real one."
        />
        <CardBody>
          <SendTestEvent
            endpointId={endpointId}
            subscribed={e.events}
            disabled={!e.enabled}
            onSent={(id) => {
              setFilters({ page: 1 });
              setSelected(id);
            }}
          />
        </CardBody>
      </Card>

      <DeliveryLog endpointId={endpointId} log={log} filters={filters} onFilters={setFilters} selectedId={selected} onSelect={setSelected} />
      {selected ? <DeliveryDetail key={selected} endpointId={endpointId} deliveryId={selected} onClose={() => setSelected(null)} /> : null}

      <HealthChart endpointId={endpointId} poll={poll} />

      <Card>
        <CardHeader title="Signing secret" />
        <CardBody className="text-sm text-zinc-600">
          {e.previousSecretSignsUntil ? (
            <p data-testid="previous-secret">
              After the last rotation, the previous secret still signs beside the new one until{" "}
              <strong>{formatDateTime(e.previousSecretSignsUntil, TO_THE_SECOND)}</strong>.
            </p>
          ) : (
            <p>One secret signs every delivery. It was shown once, when it was created; rotate it to get a new one.</p>
          )}
        </CardBody>
      </Card>

      <EndpointSettings key={e.updatedAt} endpoint={e} />
    </div>
  );
}
