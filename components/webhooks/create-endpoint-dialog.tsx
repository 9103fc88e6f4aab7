"use client";

import { useState, type FormEvent } from "react";
import { errorMessage, fieldErrors } from "@/components/lib/api-client";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import type { TEventName } from "@/server/domain/webhooks/events/event-catalogue";
import { endpointUrlHint } from "./endpoint-url-hint";
import { EventPicker } from "./event-picker";
import { ALL_EVENTS } from "./events";
import { useCreateEndpoint, type TCreatedEndpoint } from "./query";

type TProps = {
  open: boolean;
  onClose: () => void;
  onCreated: (e: TCreatedEndpoint) => void;
  /** The server's WEBHOOK_ALLOW_PRIVATE_TARGETS: whether http:// and private or loopback targets are accepted. */
  allowPrivateTargets: boolean;
};

/**
 * Register an endpoint. The server vets the URL exactly as the API does and answers 422 on `url` with the reason;
 * the hint says beforehand what it will accept, which depends on the operator's setting.
 */
export function CreateEndpointDialog({ open, onClose, onCreated, allowPrivateTargets }: TProps) {
  const create = useCreateEndpoint();
  const [url, setUrl] = useState("");
  const [description, setDescription] = useState("");
  const [events, setEvents] = useState<TEventName[]>([...ALL_EVENTS]);
  const errors = fieldErrors(create.error);
  const general = create.isError && Object.keys(errors).length === 0 ? errorMessage(create.error) : null;

  function close() {
    create.reset();
    setUrl("");
    setDescription("");
    setEvents([...ALL_EVENTS]);
    onClose();
  }

  function submit(e: FormEvent) {
    e.preventDefault();
    create.mutate(
      { url, description, events },
      {
        onSuccess: (created) => {
          close();
          onCreated(created);
        },
      },
    );
  }

  return (
    <Dialog
      open={open}
      onClose={close}
      size="lg"
      dismissible={!create.isPending}
      title="Add a webhook endpoint"
      description="Foliosign will POST a signed JSON body to this URL for every event you choose."
      footer={
        <>
          <Button variant="secondary" onClick={close} disabled={create.isPending}>
            Cancel
          </Button>
          <Button type="submit" form="create-endpoint" pending={create.isPending}>
            Add endpoint
          </Button>
        </>
      }
    >
      <form id="create-endpoint" onSubmit={submit} className="space-y-4" noValidate>
        {general ? <Alert tone="error">{general}</Alert> : null}
        <Field label="Endpoint URL" error={errors.url} hint={endpointUrlHint(allowPrivateTargets)}>
          {(p) => <Input {...p} type="url" placeholder="https://hooks.example.com/foliosign" value={url} onChange={(e) => setUrl(e.target.value)} autoFocus />}
        </Field>
        <Field label="Description" optional error={errors.description}>
          {(p) => <Input {...p} placeholder="e.g. CRM sync" value={description} onChange={(e) => setDescription(e.target.value)} />}
        </Field>
        <EventPicker value={events} onChange={setEvents} error={errors.events?.[0]} />
      </form>
    </Dialog>
  );
}
