"use client";

import { useId, useState, type FormEvent } from "react";
import { errorMessage } from "@/components/lib/api-client";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Select } from "@/components/ui/input";
import type { TEventName } from "@/server/domain/webhooks/event-catalogue";
import { EVENT_INFO } from "./events";
import { useSendTestEvent } from "./query";

/** A realistic sample of one event, `test: true`, through the real pipeline to this endpoint only. */
export function SendTestEvent({ endpointId, disabled, onSent }: { endpointId: string; disabled: boolean; onSent: (deliveryId: string) => void }) {
  const send = useSendTestEvent(endpointId);
  const [event, setEvent] = useState<TEventName>("PACKAGE_SENT");
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
        <Select id={id} className="w-64" value={event} onChange={(e) => setEvent(e.target.value as TEventName)} disabled={disabled}>
          {EVENT_INFO.map((e) => (
            <option key={e.name} value={e.name}>
              {e.name}
            </option>
          ))}
        </Select>
        <Button type="submit" pending={send.isPending} disabled={disabled}>
          Send test event
        </Button>
      </div>
      <p className="text-xs text-zinc-500">{EVENT_INFO.find((e) => e.name === event)?.description} The sample carries test: true and goes to this endpoint only.</p>
      {disabled ? <p className="text-xs text-zinc-600">Resume the endpoint to send a test event.</p> : null}
      {send.isError ? <Alert tone="error">{errorMessage(send.error)}</Alert> : null}
      {send.isSuccess ? (
        <p className="text-sm text-emerald-700" aria-live="polite">
          Test {send.data.event} queued as {send.data.deliveryId}; its result appears below.
        </p>
      ) : null}
    </form>
  );
}
