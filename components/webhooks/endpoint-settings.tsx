"use client";

import { useState, type FormEvent } from "react";
import { errorMessage, fieldErrors } from "@/components/lib/api-client";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import type { TEventName } from "@/server/domain/webhooks/events/event-catalogue";
import { EventPicker } from "./event-picker";
import { useUpdateEndpoint, type TEndpointSummary } from "./query";

/** URL, description and events, editable; the URL is vetted again on save, as at registration. */
export function EndpointSettings({ endpoint }: { endpoint: TEndpointSummary }) {
  const update = useUpdateEndpoint(endpoint.id);
  const [url, setUrl] = useState(endpoint.url);
  const [description, setDescription] = useState(endpoint.description ?? "");
  const [events, setEvents] = useState<TEventName[]>(endpoint.events);
  const errors = fieldErrors(update.error);
  const general = update.isError && Object.keys(errors).length === 0 ? errorMessage(update.error) : null;

  function submit(e: FormEvent) {
    e.preventDefault();
    update.mutate({ url, description, events });
  }

  return (
    <Card>
      <CardHeader title="Settings" description="Changes apply to events raised from now on; deliveries already queued keep their target endpoint." />
      <CardBody>
        <form onSubmit={submit} className="space-y-4" noValidate aria-label="Endpoint settings">
          {general ? <Alert tone="error">{general}</Alert> : null}
          <Field label="Endpoint URL" error={errors.url}>
            {(p) => <Input {...p} type="url" value={url} onChange={(e) => setUrl(e.target.value)} />}
          </Field>
          <Field label="Description" optional error={errors.description}>
            {(p) => <Input {...p} value={description} onChange={(e) => setDescription(e.target.value)} />}
          </Field>
          <EventPicker value={events} onChange={setEvents} error={errors.events?.[0]} />
          <div className="flex items-center gap-3">
            <Button type="submit" pending={update.isPending}>
              Save settings
            </Button>
            {update.isSuccess ? (
              <span className="text-sm text-emerald-700" aria-live="polite">
                Saved.
              </span>
            ) : null}
          </div>
        </form>
      </CardBody>
    </Card>
  );
}
