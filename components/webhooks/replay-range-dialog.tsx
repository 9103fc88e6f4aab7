"use client";

import { useState, type FormEvent } from "react";
import { errorMessage, fieldErrors } from "@/components/lib/api-client";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { useReplayDeliveries } from "./query";

const local = (d: Date) => new Date(d.getTime() - d.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);

/** Replay every EXHAUSTED delivery of this endpoint created in a time range (browser time zone). */
export function ReplayRangeDialog({ endpointId, open, onClose }: { endpointId: string; open: boolean; onClose: () => void }) {
  const replay = useReplayDeliveries(endpointId);
  const [from, setFrom] = useState(() => local(new Date(Date.now() - 24 * 3_600_000)));
  const [to, setTo] = useState(() => local(new Date(Date.now() + 60_000)));
  const [localErrors, setLocalErrors] = useState<Record<string, string>>({});
  const errors = { ...fieldErrors(replay.error), ...localErrors };
  const general = replay.isError && Object.keys(errors).length === 0 ? errorMessage(replay.error) : null;

  function close() {
    replay.reset();
    onClose();
  }

  function submit(e: FormEvent) {
    e.preventDefault();
    const start = new Date(from);
    const end = new Date(to);
    const invalid: Record<string, string> = {};
    if (Number.isNaN(start.getTime())) invalid.from = "Choose a date and time";
    if (Number.isNaN(end.getTime())) invalid.to = "Choose a date and time";
    setLocalErrors(invalid);
    if (Object.keys(invalid).length > 0) return;
    replay.mutate({ from: start.toISOString(), to: end.toISOString() });
  }

  return (
    <Dialog
      open={open}
      onClose={close}
      title="Replay exhausted deliveries"
      description="Every EXHAUSTED delivery of this endpoint created in this range is sent again with the same delivery id (so your receiver can deduplicate) and a fresh set of nine attempts. The log records that you replayed them."
      footer={
        replay.isSuccess ? (
          <Button onClick={close}>Done</Button>
        ) : (
          <>
            <Button variant="secondary" onClick={close} disabled={replay.isPending}>
              Cancel
            </Button>
            <Button type="submit" form="replay-range" pending={replay.isPending}>
              Replay
            </Button>
          </>
        )
      }
    >
      {replay.isSuccess ? (
        <Alert tone={replay.data.replayed ? "success" : "info"}>
          {replay.data.replayed
            ? `${replay.data.replayed} deliver${replay.data.replayed === 1 ? "y is" : "ies are"} queued again.`
            : "No EXHAUSTED delivery was created in this range: nothing to replay."}
        </Alert>
      ) : (
        <form id="replay-range" onSubmit={submit} className="grid gap-4 sm:grid-cols-2" noValidate>
          {general ? (
            <Alert tone="error" className="sm:col-span-2">
              {general}
            </Alert>
          ) : null}
          <Field label="From" error={errors.from}>
            {(p) => <Input {...p} type="datetime-local" value={from} onChange={(e) => setFrom(e.target.value)} />}
          </Field>
          <Field label="To" error={errors.to}>
            {(p) => <Input {...p} type="datetime-local" value={to} onChange={(e) => setTo(e.target.value)} />}
          </Field>
        </form>
      )}
    </Dialog>
  );
}
