"use client";

import Link from "next/link";
import { errorMessage } from "@/components/lib/api-client";
import { Alert } from "@/components/ui/alert";
import { Card, CardBody, CardHeader } from "@/components/ui/card";
import type { TDeliveryStatus } from "@/server/db/schema/webhooks";
import type { TEndpointState } from "@/server/domain/webhooks/health/failing";
import { DeliveryStatusBadge, EndpointStateBadge } from "./badges";
import { formatAge } from "./format";
import { useOverview } from "./query";

const STATES: TEndpointState[] = ["ACTIVE", "FAILING", "PAUSED"];
const STATUSES: TDeliveryStatus[] = ["DELIVERED", "PENDING", "FAILED", "EXHAUSTED"];

/** The Overview page's webhook health: endpoints by state, deliveries by status (24 h), the oldest waiting delivery. */
export function OverviewHealth() {
  const overview = useOverview();
  const o = overview.data;
  return (
    <Card className="mb-8">
      <CardHeader
        title="Webhook health"
        description={o ? `Workspace ${o.workspace.name}` : undefined}
        actions={
          <Link href="/webhooks" className="text-sm font-medium text-brand-700 hover:underline">
            All endpoints →
          </Link>
        }
      />
      <CardBody className="space-y-4">
        {overview.isError ? <Alert tone="error">{errorMessage(overview.error)}</Alert> : null}
        {!o ? (
          overview.isPending ? (
            <p className="text-sm text-zinc-500">Loading…</p>
          ) : null
        ) : (
          <>
            {o.failingEndpoints.length > 0 ? (
              <Alert
                tone="error"
                title={`${o.failingEndpoints.length} Failing endpoint${o.failingEndpoints.length === 1 ? "" : "s"}: new events skip ${o.failingEndpoints.length === 1 ? "it" : "them"}`}
              >
                <ul className="mt-1 space-y-0.5">
                  {o.failingEndpoints.map((f) => (
                    <li key={f.id}>
                      <Link href={`/webhooks/${f.id}`} className="font-mono text-xs break-all underline">
                        {f.url}
                      </Link>{" "}
                      — {f.consecutiveFailures} consecutive failures
                    </li>
                  ))}
                </ul>
              </Alert>
            ) : null}
            <dl className="grid gap-4 sm:grid-cols-3">
              <div data-testid="overview-endpoints">
                <dt className="text-xs font-medium text-zinc-500">Endpoints</dt>
                <dd className="mt-2 space-y-1">
                  {STATES.map((s) => (
                    <div key={s} className="flex items-center justify-between text-sm">
                      <EndpointStateBadge state={s} />
                      <span className="font-semibold tabular-nums" data-testid={`overview-${s.toLowerCase()}`}>
                        {o.endpoints[s]}
                      </span>
                    </div>
                  ))}
                </dd>
              </div>
              <div>
                <dt className="text-xs font-medium text-zinc-500">Deliveries in the last 24 h</dt>
                <dd className="mt-2 space-y-1">
                  {STATUSES.map((s) => (
                    <div key={s} className="flex items-center justify-between text-sm">
                      <DeliveryStatusBadge status={s} />
                      <span className="font-semibold tabular-nums">{o.deliveries24h[s]}</span>
                    </div>
                  ))}
                </dd>
              </div>
              <div>
                <dt className="text-xs font-medium text-zinc-500">Oldest waiting delivery</dt>
                <dd className="mt-2 text-sm">
                  {o.oldestWaiting ? (
                    <>
                      <span className="text-xl font-semibold tabular-nums text-zinc-900">{formatAge(o.oldestWaiting.ageSeconds)}</span>
                      <span className="block font-mono text-xs break-all text-zinc-500">{o.oldestWaiting.deliveryId}</span>
                    </>
                  ) : (
                    <span className="text-zinc-600">Nothing waiting: the queue is empty.</span>
                  )}
                </dd>
              </div>
            </dl>
          </>
        )}
      </CardBody>
    </Card>
  );
}
