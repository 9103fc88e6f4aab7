"use client";

import { useState, type FormEvent, type ReactNode } from "react";
import { errorMessage, fieldErrors } from "@/components/lib/api-client";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { Input } from "@/components/ui/input";

type TRow = { key: number; value: string };

export type TRowListEditorProps = {
  title: string;
  description: string;
  initial: string[];
  /** The body's list field (`origins`, `entries`): the server's errors on `<field>.<i>` land on row i of the filled rows. */
  field: string;
  /** A filled row's own problem, checked as typed; null when it is fine. */
  problem: (value: string) => string | null;
  /** A value listed again is refused ("Listed twice") on its later rows. */
  unique?: boolean;
  /** At most this many filled rows, with this message. */
  max?: { count: number; message: string };
  save: { pending: boolean; error: unknown; run: (values: string[], onSaved: () => void) => void };
  savedMessage: string;
  emptyMessage: string;
  /** The list's accessible name, the rows' id prefix, label ("Origin 3") and the noun of Remove ("Remove origin 3"). */
  list: { label: string; idPrefix: string; rowLabel: string; removeNoun: string };
  input: { placeholder: string; inputMode?: "url" | "text"; autoComplete?: string; spellCheck?: boolean };
  hint?: ReactNode;
  addLabel: string;
  saveLabel: string;
};

/** A list of one-line values edited as rows (add, remove, per-row errors as typed and from the server), saved as a whole. */
export function RowListEditor(props: TRowListEditorProps) {
  const { initial, field, problem, unique, max, save, list } = props;
  const [rows, setRows] = useState<TRow[]>(() => initial.map((value, key) => ({ key, value })));
  const [nextKey, setNextKey] = useState(initial.length);
  const [saved, setSaved] = useState(false);
  // The values sent, with the row each came from, so a server error on `<field>.<i>` lands on its row.
  const filled = rows.filter((r) => r.value.trim() !== "");
  const serverErrors = fieldErrors(save.error);
  const localError = (row: TRow): string | null => {
    const value = row.value.trim();
    if (value === "") return null;
    const own = problem(value);
    if (own) return own;
    return unique && filled.findIndex((r) => r.value.trim() === value) < filled.indexOf(row) ? "Listed twice" : null;
  };
  const rowError = (row: TRow): string | undefined => {
    const index = filled.indexOf(row);
    return localError(row) ?? (index >= 0 ? serverErrors[`${field}.${index}`]?.[0] : undefined);
  };
  const tooMany = max !== undefined && filled.length > max.count;
  const invalid = tooMany || rows.some((r) => localError(r) !== null);
  const general = save.error && Object.keys(serverErrors).length === 0 ? errorMessage(save.error) : (serverErrors[field]?.[0] ?? null);

  function update(key: number, value: string) {
    setSaved(false);
    setRows((rs) => rs.map((r) => (r.key === key ? { ...r, value } : r)));
  }
  function add() {
    setSaved(false);
    setRows((rs) => [...rs, { key: nextKey, value: "" }]);
    setNextKey((k) => k + 1);
  }
  function remove(key: number) {
    setSaved(false);
    setRows((rs) => rs.filter((r) => r.key !== key));
  }
  function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (invalid) return;
    save.run(
      filled.map((r) => r.value.trim()),
      () => setSaved(true),
    );
  }

  return (
    <Card>
      <CardHeader title={props.title} description={props.description} />
      <CardBody>
        <form onSubmit={onSubmit} noValidate className="space-y-4">
          {general ? <Alert tone="error">{general}</Alert> : null}
          {tooMany ? <Alert tone="error">{max.message}</Alert> : null}
          {saved ? <Alert tone="success">{props.savedMessage}</Alert> : null}
          {rows.length === 0 ? (
            <p className="rounded-md border border-dashed border-zinc-300 px-4 py-6 text-center text-sm text-zinc-600">{props.emptyMessage}</p>
          ) : (
            <ul className="space-y-3" aria-label={list.label}>
              {rows.map((row, i) => {
                const error = rowError(row);
                const id = `${list.idPrefix}-${row.key}`;
                return (
                  <li key={row.key}>
                    <div className="flex items-start gap-2">
                      <div className="min-w-0 flex-1">
                        <label htmlFor={id} className="sr-only">
                          {list.rowLabel} {i + 1}
                        </label>
                        <Input
                          id={id}
                          value={row.value}
                          onChange={(e) => update(row.key, e.target.value)}
                          className="font-mono"
                          {...props.input}
                          aria-invalid={Boolean(error)}
                          aria-describedby={error ? `${id}-error` : undefined}
                          autoFocus={row.key === nextKey - 1 && row.value === ""}
                        />
                        {error ? (
                          <p id={`${id}-error`} className="mt-1 text-sm break-words text-red-700">
                            {error}
                          </p>
                        ) : null}
                      </div>
                      <Button variant="ghost" onClick={() => remove(row.key)}>
                        Remove<span className="sr-only"> {`${list.removeNoun} ${i + 1}`}</span>
                      </Button>
                    </div>
                  </li>
                );
              })}
            </ul>
          )}
          {props.hint}
          <div className="flex flex-wrap items-center justify-between gap-3 border-t border-zinc-100 pt-4">
            <Button variant="secondary" onClick={add}>
              {props.addLabel}
            </Button>
            <Button type="submit" pending={save.pending} disabled={invalid}>
              {props.saveLabel}
            </Button>
          </div>
        </form>
      </CardBody>
    </Card>
  );
}
