"use client";

import { useId, useState, type FormEvent } from "react";
import { errorMessage } from "@/components/lib/api-client";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Select } from "@/components/ui/input";
import type { TEventName } from "@/server/domain/webhooks/events/event-catalogue";
import { EVENT_INFO } from "./events";
import { useSendTestEvent } from "./query";

type TProps = { endpointId: string; subscribed: readonly string[]; disabled: boolean; onSent: (deliveryId: string) => void };

/**
 * A realistic sample of one event, `test: true`, through the real pipeline to this endpoint only. The events
 * the endpoint subscribes to come first; the others can be tested too (a receiver can be prepared before
 * subscribing), under their own heading so nobody mistakes them for what the endpoint will receive.
 */
export function SendTestEvent({ endpointId, subscribed, disabled, onSent }: TProps) {
  const send = useSendTestEvent(endpointId);
  const mine = EVENT_INFO.filter((e) => subscribed.includes(e.name));
  const others = EVENT_INFO.filter((e) => !subscribed.includes(e.name));
  const [event, setEvent] = useState<TEventName>(mine[0]?.name ?? "PACKAGE_SENT");
  const id = useId();

  function submit(e: FormEvent) {
    e.preventDefault();
    send.mutate(event, { onSuccess: (r) => onSent(r.deliveryId) });
  }

  return (
    <form onSubmit={submit} className="space-y-2">
      <label htmlFor={id} className="block text-sm font-medium text-zinc-800">
        Test event
      </label>
      <div className="flex flex-wrap gap-2">
        <Select id={id} className="w-full sm:w-64" value={event} onChange={(e) => setEvent(e.target.value as TEventName)} disabled={disabled}>
          <optgroup label="Subscribed">
            {mine.map((e) => (
              <option key={e.name} value={e.name}>
                {e.name}
              </option>
            ))}
          </optgroup>
          {others.length > 0 ? (
            <optgroup label="Not subscribed (test only)">
              {others.map((e) => (
                <option key={e.name} value={e.name}>
                  {e.name}
                </option>
              ))}
            </optgroup>
          ) : null}
        </Select>
        <Button type="submit" pending={send.isPending} disabled={disabled}>
          Send test event
        </Button>
      </div>
      <p className="text-xs text-zinc-500">
        {EVENT_INFO.find((e) => e.name === event)?.description} The sample carries test: true and goes to this endpoint only.
      </p>
      {disabled ? <p className="text-xs text-zinc-600">Resume the endpoint to send a test event.</p> : null}
      {send.isError ? <Alert tone="error">{errorMessage(send.error)}</Alert> : null}
      {send.isSuccess ? (
        <p className="text-sm wrap-anywhere text-emerald-700" aria-live="polite">
          Test {send.data.event} queued as {send.data.deliveryId}; its result appears below.
        </p>
      ) : null}
    </form>
  );
}
