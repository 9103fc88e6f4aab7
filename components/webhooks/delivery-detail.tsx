"use client";

import { useEffect, useRef, useState } from "react";
import { errorMessage } from "@/components/lib/api-client";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { DeliveryStatusBadge } from "./badges";
import { TO_THE_SECOND, formatDateTime, formatRelative } from "@/components/lib/format";
import { formatMs } from "./format";
import { useDeliveryDetail, useReplayDeliveries, type TDeliveryDetail } from "./query";
import { SignatureDebugger } from "./signature-debugger";

function Section({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <section className="space-y-2">
      <h3 className="text-sm font-semibold text-zinc-900">{title}</h3>
      {children}
    </section>
  );
}

function Attempts({ detail }: { detail: TDeliveryDetail }) {
  if (detail.attemptLog.length === 0) return <p className="text-sm text-zinc-500">No attempt yet: the first one is due now.</p>;
  return (
    <ol className="space-y-3">
      {[...detail.attemptLog].reverse().map((a) => {
        const ok = a.responseStatus !== null && a.responseStatus >= 200 && a.responseStatus < 300;
        return (
          <li key={a.id} className="rounded-md border border-zinc-200 p-3 text-sm" data-testid="attempt">
            <div className="flex flex-wrap items-center gap-x-4 gap-y-1">
              <span className="font-medium text-zinc-900">
                Attempt {a.attemptNumber}
                {a.afterReplay ? <span className="ml-1 text-xs font-normal text-zinc-500">(after replay)</span> : null}
              </span>
              <span className={ok ? "font-medium text-emerald-700" : "font-medium text-red-700"}>
                {a.responseStatus !== null ? `HTTP ${a.responseStatus}` : "No response"}
              </span>
              <span className="text-zinc-600">{formatDateTime(a.startedAt, TO_THE_SECOND)}</span>
              <span className="text-zinc-600">{formatMs(a.durationMs)}</span>
              <span className="text-zinc-600">{a.remoteAddress ? `to ${a.remoteAddress}` : "not connected"}</span>
            </div>
            {a.error ? <p className="mt-1 text-red-700">Error: {a.error}</p> : null}
            {a.responseBody !== null ? (
              <pre
                className="mt-2 max-h-32 overflow-auto rounded bg-zinc-50 p-2 font-mono text-xs whitespace-pre-wrap text-zinc-800"
                aria-label={`Response body of attempt ${a.attemptNumber}`}
              >
                {a.responseBody || "(empty body)"}
              </pre>
            ) : null}
          </li>
        );
      })}
    </ol>
  );
}

/** One delivery in full: status and next retry, the request as sent, every attempt, the signature debugger, replay. */
export function DeliveryDetail({ endpointId, deliveryId, onClose }: { endpointId: string; deliveryId: string; onClose: () => void }) {
  const detail = useDeliveryDetail(endpointId, deliveryId);
  const replay = useReplayDeliveries(endpointId);
  const [confirming, setConfirming] = useState(false);
  const heading = useRef<HTMLDivElement>(null);
  // Braces matter: recent Chromium returns a Promise from scrollIntoView, and React would call it as a cleanup.
  useEffect(() => {
    heading.current?.scrollIntoView({ block: "start", behavior: "smooth" });
  }, [deliveryId]);
  const d = detail.data;

  return (
    <div ref={heading} className="scroll-mt-6">
      <Card>
        <CardHeader
          title={`Delivery ${deliveryId}`}
          description={d ? `${d.event}${d.test ? " (test event)" : ""} · created ${formatDateTime(d.createdAt, TO_THE_SECOND)}` : undefined}
          actions={
            <>
              {d?.status === "EXHAUSTED" ? (
                <Button size="sm" onClick={() => setConfirming(true)}>
                  Replay
                </Button>
              ) : null}
              <Button variant="secondary" size="sm" onClick={onClose}>
                Close
              </Button>
            </>
          }
        />
        <CardBody className="space-y-6">
          {detail.isError ? <Alert tone="error">{errorMessage(detail.error)}</Alert> : null}
          {!d ? (
            detail.isPending ? (
              <p className="text-sm text-zinc-500">Loading delivery…</p>
            ) : null
          ) : (
            <>
              <div className="flex flex-wrap items-center gap-x-6 gap-y-2 text-sm" data-testid="delivery-summary">
                <DeliveryStatusBadge status={d.status} />
                <span>
                  {d.attempts} attempt{d.attempts === 1 ? "" : "s"}
                  {d.replayedAt ? " since the replay" : ""}
                </span>
                {d.nextAttemptAt ? (
                  <span>
                    Next attempt {formatRelative(d.nextAttemptAt, TO_THE_SECOND)} ({formatDateTime(d.nextAttemptAt, TO_THE_SECOND)})
                  </span>
                ) : null}
                {d.status === "EXHAUSTED" && d.lastError ? <span className="text-red-700">Ended: {d.lastError}</span> : null}
                {d.replayedAt ? (
                  <span className="text-zinc-600">
                    Replayed {formatDateTime(d.replayedAt, TO_THE_SECOND)} by {d.replayedBy}
                  </span>
                ) : null}
              </div>
              <Section title="Attempts">
                <Attempts detail={d} />
              </Section>
              <Section title="Request as sent">
                <p className="font-mono text-xs text-zinc-700">POST {d.request.url}</p>
                {d.request.headers ? (
                  <table className="w-full text-left font-mono text-xs" aria-label="Request headers">
                    <tbody className="divide-y divide-zinc-100">
                      {Object.entries(d.request.headers).map(([k, v]) => (
                        <tr key={k}>
                          <th scope="row" className="py-1 pr-4 align-top font-medium whitespace-nowrap text-zinc-600">
                            {k}
                          </th>
                          <td className="py-1 break-all text-zinc-900">{v}</td>
                        </tr>
                      ))}
                    </tbody>
                  </table>
                ) : (
                  <p className="text-sm text-zinc-500">Headers appear once an attempt has been sent (each attempt has a fresh timestamp and signature).</p>
                )}
                <pre className="max-h-80 overflow-auto rounded-md bg-zinc-50 p-3 font-mono text-xs text-zinc-800" aria-label="Request body">
                  {d.request.prettyBody}
                </pre>
              </Section>
              <Section title="Signature debugger">
                <SignatureDebugger detail={d} />
              </Section>
            </>
          )}
        </CardBody>
      </Card>
      <ConfirmDialog
        open={confirming}
        destructive={false}
        title="Replay this delivery?"
        description={`It is sent again to ${d?.url ?? "the endpoint"} with the same delivery id (${deliveryId}), so a receiver that already processed it can recognise it. It gets a fresh set of nine attempts.`}
        confirmLabel="Replay delivery"
        pending={replay.isPending}
        error={replay.isError ? errorMessage(replay.error) : null}
        onCancel={() => {
          replay.reset();
          setConfirming(false);
        }}
        onConfirm={() => replay.mutate({ deliveryId }, { onSuccess: () => setConfirming(false) })}
      />
    </div>
  );
}
