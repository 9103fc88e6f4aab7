"use client";

import { useState } from "react";
import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { cn } from "@/components/ui/cn";
import type { TDeliveryStatus } from "@/server/db/schema/webhooks";
import { formatMs } from "./format";
import { useEndpointChart, type TChart, type TRange } from "./query";

const COLORS: Record<TDeliveryStatus, string> = { DELIVERED: "#059669", FAILED: "#d97706", EXHAUSTED: "#dc2626", PENDING: "#6366f1" };
const ORDER: TDeliveryStatus[] = ["DELIVERED", "FAILED", "EXHAUSTED", "PENDING"];
const W = 720;

function hourLabel(iso: string, range: TRange) {
  const d = new Date(iso);
  return range === "24h"
    ? new Intl.DateTimeFormat(undefined, { hour: "2-digit", minute: "2-digit" }).format(d)
    : new Intl.DateTimeFormat(undefined, { weekday: "short", day: "numeric" }).format(d);
}

function Bars({ data, range }: { data: TChart; range: TRange }) {
  const H = 140;
  const buckets = data.buckets;
  const max = Math.max(1, ...buckets.map((b) => ORDER.reduce((s, k) => s + b.deliveries[k], 0)));
  const bw = W / buckets.length;
  const totals = Object.fromEntries(ORDER.map((k) => [k, buckets.reduce((s, b) => s + b.deliveries[k], 0)])) as Record<TDeliveryStatus, number>;
  const summary = `Deliveries per hour over the last ${range === "24h" ? "24 hours" : "7 days"}: ${ORDER.map((k) => `${totals[k]} ${k}`).join(", ")}; busiest hour ${max}.`;
  const tickEvery = range === "24h" ? 6 : 24;
  return (
    <svg viewBox={`0 0 ${W} ${H + 18}`} className="h-auto w-full" role="img" aria-label={summary}>
      <line x1="0" y1={H} x2={W} y2={H} stroke="#e4e4e7" />
      <text x="2" y="10" fontSize="10" fill="#71717a">
        {max}
      </text>
      {buckets.map((b, i) => {
        let y = H;
        return (
          <g key={b.hour}>
            <title>{`${hourLabel(b.hour, "24h")} ${new Date(b.hour).toLocaleDateString()}: ${ORDER.map((k) => `${b.deliveries[k]} ${k}`).join(", ")}`}</title>
            <rect x={i * bw} y={0} width={bw} height={H} fill="transparent" />
            {ORDER.map((k) => {
              const h = (b.deliveries[k] / max) * (H - 14);
              y -= h;
              return h > 0 ? <rect key={k} x={i * bw + bw * 0.15} y={y} width={bw * 0.7} height={h} fill={COLORS[k]} rx="1" /> : null;
            })}
            {i % tickEvery === 0 ? (
              <text x={i * bw + 1} y={H + 13} fontSize="10" fill="#71717a">
                {hourLabel(b.hour, range)}
              </text>
            ) : null}
          </g>
        );
      })}
    </svg>
  );
}

function Latency({ data }: { data: TChart }) {
  const H = 70;
  const buckets = data.buckets;
  const max = Math.max(1, ...buckets.map((b) => b.p95Ms ?? 0));
  const bw = W / buckets.length;
  const line = (pick: (b: TChart["buckets"][number]) => number | null) =>
    buckets
      .map((b, i) => (pick(b) === null ? null : `${i * bw + bw / 2},${H - (pick(b)! / max) * (H - 10)}`))
      .filter(Boolean)
      .join(" ");
  const answered = buckets.filter((b) => b.p50Ms !== null);
  if (answered.length === 0) return <p className="text-xs text-zinc-500">No answered attempts in this range, so no response times.</p>;
  return (
    <svg viewBox={`0 0 ${W} ${H}`} className="h-auto w-full" role="img" aria-label={`Response time per hour: highest p95 ${formatMs(max)}.`}>
      <line x1="0" y1={H - 0.5} x2={W} y2={H - 0.5} stroke="#e4e4e7" />
      <text x="2" y="9" fontSize="10" fill="#71717a">
        {formatMs(max)}
      </text>
      {(["p95Ms", "p50Ms"] as const).map((k) => {
        const pts = line((b) => b[k]);
        return answered.length === 1 ? (
          pts.split(" ").map((p) => {
            const [cx, cy] = p.split(",");
            return <circle key={`${k}${p}`} cx={cx} cy={cy} r="3" fill={k === "p95Ms" ? "#a1a1aa" : "#4f46e5"} />;
          })
        ) : (
          <polyline key={k} points={pts} fill="none" stroke={k === "p95Ms" ? "#a1a1aa" : "#4f46e5"} strokeWidth="1.5" />
        );
      })}
    </svg>
  );
}

/** Deliveries per hour by status and response time (p50/p95), over 24 hours or 7 days. Plain SVG. */
export function HealthChart({ endpointId, poll }: { endpointId: string; poll: number | false }) {
  const [range, setRange] = useState<TRange>("24h");
  const chart = useEndpointChart(endpointId, range, poll);
  return (
    <Card>
      <CardHeader
        title="Health"
        description="Deliveries created per hour, by their current status, and the response time of answered attempts."
        actions={
          <div role="group" aria-label="Chart range" className="inline-flex rounded-md border border-zinc-300 p-0.5">
            {(["24h", "7d"] as const).map((r) => (
              <button
                key={r}
                type="button"
                aria-pressed={range === r}
                onClick={() => setRange(r)}
                className={cn("rounded px-3 py-1 text-sm", range === r ? "bg-brand-600 text-white" : "text-zinc-700 hover:bg-zinc-100")}
              >
                {r === "24h" ? "24 hours" : "7 days"}
              </button>
            ))}
          </div>
        }
      />
      <CardBody className="space-y-4">
        {chart.data ? (
          <>
            <Bars data={chart.data} range={range} />
            <ul className="flex flex-wrap gap-4 text-xs text-zinc-600" aria-hidden="true">
              {ORDER.map((k) => (
                <li key={k} className="flex items-center gap-1.5">
                  <span className="inline-block size-2.5 rounded-sm" style={{ background: COLORS[k] }} />
                  {k}
                </li>
              ))}
            </ul>
            <div>
              <p className="mb-1 text-xs font-medium text-zinc-600">
                Response time{" "}
                <span className="font-normal text-zinc-500">
                  (<span className="text-brand-700">p50</span>, p95 in grey)
                </span>
              </p>
              <Latency data={chart.data} />
            </div>
          </>
        ) : (
          <p className="py-10 text-center text-sm text-zinc-500">{chart.isError ? "The chart could not be loaded." : "Loading chart…"}</p>
        )}
      </CardBody>
    </Card>
  );
}
