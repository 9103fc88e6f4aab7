"use client";

import type { TEventName } from "@/server/domain/webhooks/events/event-catalogue";
import { Checkbox } from "@/components/ui/input";
import { ALL_EVENTS, EVENT_INFO } from "./events";

/** The fifteen events with what each means, as checkboxes in two groups; "All" and "None" shortcuts. */
export function EventPicker({ value, onChange, error }: { value: TEventName[]; onChange: (events: TEventName[]) => void; error?: string }) {
  const toggle = (name: TEventName, on: boolean) => onChange(ALL_EVENTS.filter((e) => (e === name ? on : value.includes(e))));
  return (
    <fieldset className="space-y-2" aria-describedby={error ? "event-picker-error" : undefined}>
      <div className="flex items-center justify-between">
        <legend className="text-sm font-medium text-zinc-800">Events ({value.length} of 15)</legend>
        <div className="flex gap-3 text-xs">
          <button type="button" className="font-medium text-brand-700 hover:underline" onClick={() => onChange([...ALL_EVENTS])}>
            All
          </button>
          <button type="button" className="font-medium text-brand-700 hover:underline" onClick={() => onChange([])}>
            None
          </button>
        </div>
      </div>
      {(["Package", "Recipient session"] as const).map((group) => (
        <div key={group} className="rounded-md border border-zinc-200">
          <p className="border-b border-zinc-100 bg-zinc-50 px-3 py-1.5 text-xs font-semibold tracking-wide text-zinc-500 uppercase">{group} events</p>
          <ul className="divide-y divide-zinc-100">
            {EVENT_INFO.filter((e) => e.group === group).map((e) => (
              <li key={e.name}>
                <label className="flex cursor-pointer items-start gap-3 px-3 py-2 hover:bg-zinc-50">
                  <Checkbox className="mt-0.5" checked={value.includes(e.name)} onChange={(ev) => toggle(e.name, ev.currentTarget.checked)} />
                  <span>
                    <span className="block font-mono text-xs font-medium text-zinc-900">{e.name}</span>
                    <span className="block text-xs text-zinc-500">{e.description}</span>
                  </span>
                </label>
              </li>
            ))}
          </ul>
        </div>
      ))}
      {error ? (
        <p id="event-picker-error" className="text-sm text-red-700">
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}
