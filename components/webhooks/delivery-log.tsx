"use client";

import { useState } from "react";
import { errorMessage } from "@/components/lib/api-client";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Card, CardHeader } from "@/components/ui/card";
import { cn } from "@/components/ui/cn";
import { EmptyState } from "@/components/ui/empty-state";
import { Select } from "@/components/ui/input";
import { TBody, TD, TH, THead, TR, Table } from "@/components/ui/table";
import type { TDeliveryStatus } from "@/server/db/schema/webhooks";
import type { TEventName } from "@/server/domain/webhooks/events/event-catalogue";
import { DeliveryStatusBadge } from "./badges";
import { ALL_EVENTS, DELIVERY_STATUS_OPTIONS } from "./events";
import { TO_THE_SECOND, formatDateTime, formatRelative } from "@/components/lib/format";
import type { TDeliveryLog, TLogFilters } from "./query";
import { ReplayRangeDialog } from "./replay-range-dialog";

type TProps = {
  endpointId: string;
  log: { data?: TDeliveryLog; isPending: boolean; isError: boolean; error: unknown; isFetching: boolean };
  filters: TLogFilters;
  onFilters: (f: TLogFilters) => void;
  selectedId: string | null;
  onSelect: (id: string) => void;
};

/** The delivery log: newest first, 20 a page, filtered by status and event; a row opens its detail. */
export function DeliveryLog({ endpointId, log, filters, onFilters, selectedId, onSelect }: TProps) {
  const [replaying, setReplaying] = useState(false);
  const data = log.data;
  const pages = data ? Math.max(1, Math.ceil(data.deliveryCount / data.pageSize)) : 1;
  const waiting = data ? data.waiting.pending + data.waiting.failed : 0;
  return (
    <Card>
      <CardHeader
        title="Delivery log"
        description={
          waiting > 0 ? (
            <span aria-live="polite">
              {data!.waiting.pending} pending, {data!.waiting.failed} waiting for a retry — this log refreshes by itself.
            </span>
          ) : (
            "Newest first. Select a delivery to see the request as sent and every attempt."
          )
        }
        actions={
          <Button variant="secondary" size="sm" onClick={() => setReplaying(true)}>
            Replay exhausted…
          </Button>
        }
      />
      <div className="flex flex-wrap gap-3 border-b border-zinc-100 px-6 py-3">
        <label className="flex items-center gap-2 text-sm text-zinc-700">
          Status
          <Select
            className="h-9 w-40"
            value={filters.status ?? ""}
            onChange={(e) => onFilters({ ...filters, page: 1, status: (e.target.value || undefined) as TDeliveryStatus | undefined })}
          >
            <option value="">All statuses</option>
            {DELIVERY_STATUS_OPTIONS.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </Select>
        </label>
        <label className="flex items-center gap-2 text-sm text-zinc-700">
          Event
          <Select
            className="h-9 w-56"
            value={filters.event ?? ""}
            onChange={(e) => onFilters({ ...filters, page: 1, event: (e.target.value || undefined) as TEventName | undefined })}
          >
            <option value="">All events</option>
            {ALL_EVENTS.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </Select>
        </label>
      </div>
      {log.isPending ? (
        <p className="px-6 py-10 text-center text-sm text-zinc-500">Loading deliveries…</p>
      ) : log.isError || !data ? (
        <div className="p-6">
          <Alert tone="error">{errorMessage(log.error)}</Alert>
        </div>
      ) : data.deliveries.length === 0 ? (
        <EmptyState
          title={filters.status || filters.event ? "No delivery matches these filters" : "No deliveries yet"}
          description={
            filters.status || filters.event ? "Clear a filter to see more." : "Send a test event to see a delivery here, signed and logged like a real one."
          }
        />
      ) : (
        <Table aria-label="Deliveries">
          <THead>
            <TR>
              {/* On a phone: event, status and response; the row itself opens the delivery's details. */}
              <TH className="px-4 sm:px-6">Event</TH>
              <TH className="px-2 sm:px-6">Status</TH>
              <TH className="hidden md:table-cell">Delivery id</TH>
              <TH className="hidden text-right sm:table-cell">Attempts</TH>
              <TH className="px-4 text-right sm:px-6">Response</TH>
              <TH className="hidden md:table-cell">Time</TH>
            </TR>
          </THead>
          <TBody>
            {data.deliveries.map((d) => (
              <TR
                key={d.id}
                data-testid="delivery-row"
                className={cn("cursor-pointer hover:bg-zinc-50", selectedId === d.id && "bg-brand-50/60")}
                onClick={() => onSelect(d.id)}
              >
                <TD className="px-4 py-3 sm:px-6">
                  <span className="font-mono text-xs font-medium whitespace-nowrap text-zinc-900">{d.event}</span>
                  {d.test ? (
                    <span className="ml-2 inline-block rounded bg-zinc-100 px-1.5 py-0.5 text-[10px] font-semibold text-zinc-600 uppercase">test</span>
                  ) : null}
                  <span className="block text-xs text-zinc-500 md:hidden" title={formatDateTime(d.createdAt, TO_THE_SECOND)}>
                    {formatRelative(d.createdAt, TO_THE_SECOND)}
                  </span>
                </TD>
                <TD className="px-2 py-3 sm:px-6">
                  <DeliveryStatusBadge status={d.status} />
                </TD>
                <TD className="hidden py-3 md:table-cell">
                  <button
                    type="button"
                    className="text-left font-mono text-xs whitespace-nowrap text-brand-700 hover:underline"
                    aria-label={`Show delivery ${d.id}`}
                    aria-expanded={selectedId === d.id}
                    onClick={(e) => {
                      e.stopPropagation();
                      onSelect(d.id);
                    }}
                  >
                    {d.id}
                  </button>
                  {d.replayedAt ? <span className="block text-xs text-zinc-500">Replayed by {d.replayedBy}</span> : null}
                </TD>
                <TD className="hidden py-3 text-right tabular-nums sm:table-cell">{d.attempts}</TD>
                <TD className="px-4 py-3 text-right tabular-nums sm:px-6" title={d.error ?? undefined}>
                  {d.responseStatus ?? (d.error ? <span className="text-xs text-red-700">error</span> : "—")}
                </TD>
                <TD className="hidden py-3 whitespace-nowrap md:table-cell" title={formatDateTime(d.createdAt, TO_THE_SECOND)}>
                  {formatRelative(d.createdAt, TO_THE_SECOND)}
                </TD>
              </TR>
            ))}
          </TBody>
        </Table>
      )}
      {data && data.deliveryCount > 0 ? (
        <nav aria-label="Delivery log pages" className="flex items-center justify-between border-t border-zinc-100 px-6 py-3 text-sm text-zinc-600">
          <span>
            {data.deliveryCount} deliver{data.deliveryCount === 1 ? "y" : "ies"} · page {filters.page} of {pages}
          </span>
          <span className="flex gap-2">
            <Button variant="secondary" size="sm" disabled={filters.page <= 1} onClick={() => onFilters({ ...filters, page: filters.page - 1 })}>
              Newer
            </Button>
            <Button variant="secondary" size="sm" disabled={filters.page >= pages} onClick={() => onFilters({ ...filters, page: filters.page + 1 })}>
              Older
            </Button>
          </span>
        </nav>
      ) : null}
      {/* Mounted on opening, so its default range ends now, not when the page was loaded. */}
      {replaying ? <ReplayRangeDialog endpointId={endpointId} open onClose={() => setReplaying(false)} /> : null}
    </Card>
  );
}
