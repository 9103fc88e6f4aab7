"use client";

import { useState, type FormEvent } from "react";
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

/** Merge fields: values a package fills in (e.g. the customer's name), referenced by text fields. Saved as a whole list. */
export function MergeFieldsPanel({
  items,
  readOnly,
  onSave,
}: {
  items: TMergeField[];
  readOnly: boolean;
  onSave: (next: TMergeField[], what: string) => void;
}) {
  const [key, setKey] = useState("");
  const [label, setLabel] = useState("");
  const [defaultValue, setDefaultValue] = useState("");
  const [problem, setProblem] = useState<string | null>(null);

  function add(e: FormEvent) {
    e.preventDefault();
    const p =
      keyProblem(
        key.trim(),
        items.map((i) => i.key),
      ) ?? (label.trim() ? null : "Enter a label");
    setProblem(p);
    if (p) return;
    onSave([...items, { key: key.trim(), label: label.trim(), defaultValue: defaultValue.trim() || null }], `merge field ${key.trim()}`);
    setKey("");
    setLabel("");
    setDefaultValue("");
  }

  return (
    <div className="space-y-3">
      {items.length === 0 ? <p className="text-sm text-zinc-500">No merge field. Add one to pre-fill text fields from each package’s values.</p> : null}
      <ul className="space-y-1.5" aria-label="Merge fields">
        {items.map((m) => (
          <li key={m.key} className="flex items-center justify-between gap-2 text-sm">
            <span className="min-w-0">
              <span className="font-medium text-zinc-900">{m.label}</span> <code className="text-xs text-zinc-500">{m.key}</code>
              {m.defaultValue ? <span className="block truncate text-xs text-zinc-500">Default: {m.defaultValue}</span> : null}
            </span>
            <Button
              variant="danger-ghost"
              size="sm"
              aria-label={`Remove merge field ${m.key}`}
              disabled={readOnly}
              onClick={() =>
                onSave(
                  items.filter((i) => i.key !== m.key),
                  `removal of merge field ${m.key}`,
                )
              }
            >
              Remove
            </Button>
          </li>
        ))}
      </ul>
      <form onSubmit={add} className="space-y-2" noValidate>
        <div className="grid grid-cols-2 gap-2">
          <Input
            aria-label="Merge field key"
            placeholder="Key, e.g. customerName"
            value={key}
            disabled={readOnly}
            onChange={(e) => setKey(e.target.value)}
            className="h-9"
          />
          <Input
            aria-label="Merge field label"
            placeholder="Label"
            value={label}
            disabled={readOnly}
            onChange={(e) => setLabel(e.target.value)}
            className="h-9"
          />
        </div>
        <Input
          aria-label="Merge field default value"
          placeholder="Default value (optional)"
          value={defaultValue}
          disabled={readOnly}
          onChange={(e) => setDefaultValue(e.target.value)}
          className="h-9"
        />
        {problem ? (
          <p role="alert" className="text-sm text-red-700">
            {problem}
          </p>
        ) : null}
        <Button type="submit" variant="secondary" size="sm" disabled={readOnly}>
          Add merge field
        </Button>
      </form>
    </div>
  );
}

/** Questions the sender must answer before sending a package from this template. Saved as a whole list. */
export function QuestionsPanel({
  items,
  readOnly,
  onSave,
}: {
  items: TSenderQuestion[];
  readOnly: boolean;
  onSave: (next: TSenderQuestion[], what: string) => void;
}) {
  const [key, setKey] = useState("");
  const [label, setLabel] = useState("");
  const [required, setRequired] = useState(true);
  const [problem, setProblem] = useState<string | null>(null);

  function add(e: FormEvent) {
    e.preventDefault();
    const p =
      keyProblem(
        key.trim(),
        items.map((i) => i.key),
      ) ?? (label.trim() ? null : "Enter the question");
    setProblem(p);
    if (p) return;
    onSave([...items, { key: key.trim(), label: label.trim(), required }], `question ${key.trim()}`);
    setKey("");
    setLabel("");
    setRequired(true);
  }

  return (
    <div className="space-y-3">
      {items.length === 0 ? <p className="text-sm text-zinc-500">No question. Add one when the sender must answer something before sending.</p> : null}
      <ul className="space-y-1.5" aria-label="Sender questions">
        {items.map((q) => (
          <li key={q.key} className="flex items-center justify-between gap-2 text-sm">
            <span className="min-w-0">
              <span className="font-medium text-zinc-900">{q.label}</span> <code className="text-xs text-zinc-500">{q.key}</code>
              <span className="block text-xs text-zinc-500">{q.required === false ? "Optional" : "Required"}</span>
            </span>
            <Button
              variant="danger-ghost"
              size="sm"
              aria-label={`Remove question ${q.key}`}
              disabled={readOnly}
              onClick={() =>
                onSave(
                  items.filter((i) => i.key !== q.key),
                  `removal of question ${q.key}`,
                )
              }
            >
              Remove
            </Button>
          </li>
        ))}
      </ul>
      <form onSubmit={add} className="space-y-2" noValidate>
        <Input
          aria-label="Question key"
          placeholder="Key, e.g. contractTerm"
          value={key}
          disabled={readOnly}
          onChange={(e) => setKey(e.target.value)}
          className="h-9"
        />
        <Input
          aria-label="Question"
          placeholder="Question, e.g. How many months?"
          value={label}
          disabled={readOnly}
          onChange={(e) => setLabel(e.target.value)}
          className="h-9"
        />
        <label className="flex items-center gap-2 text-sm text-zinc-800">
          <Checkbox checked={required} disabled={readOnly} onChange={(e) => setRequired(e.target.checked)} />
          The sender must answer
        </label>
        {problem ? (
          <p role="alert" className="text-sm text-red-700">
            {problem}
          </p>
        ) : null}
        <Button type="submit" variant="secondary" size="sm" disabled={readOnly}>
          Add question
        </Button>
      </form>
    </div>
  );
}
