"use client";

import { useState, type FormEvent, type ReactNode } from "react";
import { Button } from "@/components/ui/button";
import { Checkbox, Input } from "@/components/ui/input";
import type { TMergeField, TSenderQuestion } from "./query";

const KEY_PATTERN = /^[A-Za-z][A-Za-z0-9_.-]*$/;

function keyProblem(key: string, taken: string[]): string | null {
  if (!key) return "Enter a key";
  if (!KEY_PATTERN.test(key)) return "Letters, digits, _, . and -, starting with a letter";
  if (taken.includes(key)) return "Keys must be unique";
  return null;
}

type TKeyed = { key: string; label: string };

/**
 * A template's list of keyed items (merge fields, sender questions), saved as a whole list: the items with a
 * Remove button each, and a form adding one — a unique key, a label, and what else the kind of item has
 * (`extra`: its own input, its value, and how it completes the item).
 */
function KeyedListPanel<T extends TKeyed, X>({
  items,
  readOnly,
  onSave,
  noun,
  listLabel,
  empty,
  keyPlaceholder,
  labelInput,
  keyAndLabelClassName,
  detail,
  extra,
}: {
  items: T[];
  readOnly: boolean;
  onSave: (next: T[], what: string) => void;
  /** "merge field": names the inputs, the buttons and what is saved. */
  noun: string;
  listLabel: string;
  empty: string;
  keyPlaceholder: string;
  labelInput: { ariaLabel: string; placeholder: string; missing: string };
  keyAndLabelClassName: string;
  detail: (item: T) => ReactNode;
  extra: { initial: X; input: (value: X, set: (value: X) => void, disabled: boolean) => ReactNode; complete: (item: TKeyed, value: X) => T };
}) {
  const [key, setKey] = useState("");
  const [label, setLabel] = useState("");
  const [extraValue, setExtraValue] = useState(extra.initial);
  const [problem, setProblem] = useState<string | null>(null);
  const Noun = noun.charAt(0).toUpperCase() + noun.slice(1);

  function add(e: FormEvent) {
    e.preventDefault();
    const p =
      keyProblem(
        key.trim(),
        items.map((i) => i.key),
      ) ?? (label.trim() ? null : labelInput.missing);
    setProblem(p);
    if (p) return;
    onSave([...items, extra.complete({ key: key.trim(), label: label.trim() }, extraValue)], `${noun} ${key.trim()}`);
    setKey("");
    setLabel("");
    setExtraValue(extra.initial);
  }

  return (
    <div className="space-y-3">
      {items.length === 0 ? <p className="text-sm text-zinc-500">{empty}</p> : null}
      <ul className="space-y-1.5" aria-label={listLabel}>
        {items.map((item) => (
          <li key={item.key} className="flex items-center justify-between gap-2 text-sm">
            <span className="min-w-0">
              <span className="font-medium text-zinc-900">{item.label}</span> <code className="text-xs text-zinc-500">{item.key}</code>
              {detail(item)}
            </span>
            <Button
              variant="danger-ghost"
              size="sm"
              aria-label={`Remove ${noun} ${item.key}`}
              disabled={readOnly}
              onClick={() =>
                onSave(
                  items.filter((i) => i.key !== item.key),
                  `removal of ${noun} ${item.key}`,
                )
              }
            >
              Remove
            </Button>
          </li>
        ))}
      </ul>
      <form onSubmit={add} className="space-y-2" noValidate>
        <div className={keyAndLabelClassName}>
          <Input
            aria-label={`${Noun} key`}
            placeholder={keyPlaceholder}
            value={key}
            disabled={readOnly}
            onChange={(e) => setKey(e.target.value)}
            className="h-9"
          />
          <Input
            aria-label={labelInput.ariaLabel}
            placeholder={labelInput.placeholder}
            value={label}
            disabled={readOnly}
            onChange={(e) => setLabel(e.target.value)}
            className="h-9"
          />
        </div>
        {extra.input(extraValue, setExtraValue, readOnly)}
        {problem ? (
          <p role="alert" className="text-sm text-red-700">
            {problem}
          </p>
        ) : null}
        <Button type="submit" variant="secondary" size="sm" disabled={readOnly}>
          Add {noun}
        </Button>
      </form>
    </div>
  );
}

/** Merge fields: values a package fills in (e.g. the customer's name), referenced by text fields. Saved as a whole list. */
export function MergeFieldsPanel(props: { items: TMergeField[]; readOnly: boolean; onSave: (next: TMergeField[], what: string) => void }) {
  return (
    <KeyedListPanel
      {...props}
      noun="merge field"
      listLabel="Merge fields"
      empty="No merge field. Add one to pre-fill text fields from each package’s values."
      keyPlaceholder="Key, e.g. customerName"
      labelInput={{ ariaLabel: "Merge field label", placeholder: "Label", missing: "Enter a label" }}
      keyAndLabelClassName="grid grid-cols-2 gap-2"
      detail={(m) => (m.defaultValue ? <span className="block truncate text-xs text-zinc-500">Default: {m.defaultValue}</span> : null)}
      extra={{
        initial: "",
        input: (defaultValue, set, disabled) => (
          <Input
            aria-label="Merge field default value"
            placeholder="Default value (optional)"
            value={defaultValue}
            disabled={disabled}
            onChange={(e) => set(e.target.value)}
            className="h-9"
          />
        ),
        complete: (item, defaultValue) => ({ ...item, defaultValue: defaultValue.trim() || null }),
      }}
    />
  );
}

/** Questions the sender must answer before sending a package from this template. Saved as a whole list. */
export function QuestionsPanel(props: { items: TSenderQuestion[]; readOnly: boolean; onSave: (next: TSenderQuestion[], what: string) => void }) {
  return (
    <KeyedListPanel
      {...props}
      noun="question"
      listLabel="Sender questions"
      empty="No question. Add one when the sender must answer something before sending."
      keyPlaceholder="Key, e.g. contractTerm"
      labelInput={{ ariaLabel: "Question", placeholder: "Question, e.g. How many months?", missing: "Enter the question" }}
      keyAndLabelClassName="space-y-2"
      detail={(q) => <span className="block text-xs text-zinc-500">{q.required === false ? "Optional" : "Required"}</span>}
      extra={{
        initial: true,
        input: (required, set, disabled) => (
          <label className="flex items-center gap-2 text-sm text-zinc-800">
            <Checkbox checked={required} disabled={disabled} onChange={(e) => set(e.target.checked)} />
            The sender must answer
          </label>
        ),
        complete: (item, required) => ({ ...item, required }),
      }}
    />
  );
}
