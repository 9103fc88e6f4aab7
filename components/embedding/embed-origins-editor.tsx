"use client";

import { useState, type FormEvent } from "react";
import { embedOriginProblem, MAX_EMBED_ORIGINS } from "@/common/embed-origin";
import { errorMessage, fieldErrors } from "@/components/lib/api-client";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { Input } from "@/components/ui/input";
import { useEmbedOrigins, useSetEmbedOrigins } from "./query";

type TRow = { key: number; value: string };

/** The workspace's allowed embed origins: one row per origin, checked as typed (common/embed-origin.ts), saved as a whole. */
export function EmbedOriginsEditor() {
  const origins = useEmbedOrigins();
  if (origins.isPending) return <p className="text-sm text-zinc-500">Loading the embed origins…</p>;
  if (origins.isError) return <Alert tone="error">{errorMessage(origins.error)}</Alert>;
  return <Editor initial={origins.data.origins} />;
}

function Editor({ initial }: { initial: string[] }) {
  const save = useSetEmbedOrigins();
  const [rows, setRows] = useState<TRow[]>(() => initial.map((value, key) => ({ key, value })));
  const [nextKey, setNextKey] = useState(initial.length);
  const [saved, setSaved] = useState(false);
  const filled = rows.filter((r) => r.value.trim() !== "");
  const serverErrors = fieldErrors(save.error);
  const localError = (row: TRow): string | null => {
    const value = row.value.trim();
    if (value === "") return null;
    const problem = embedOriginProblem(value);
    if (problem) return problem;
    return filled.findIndex((r) => r.value.trim() === value) < filled.indexOf(row) ? "Listed twice" : null;
  };
  const rowError = (row: TRow): string | undefined => {
    const index = filled.indexOf(row);
    return localError(row) ?? (index >= 0 ? serverErrors[`origins.${index}`]?.[0] : undefined);
  };
  const tooMany = filled.length > MAX_EMBED_ORIGINS;
  const invalid = tooMany || rows.some((r) => localError(r) !== null);
  const general = save.error && Object.keys(serverErrors).length === 0 ? errorMessage(save.error) : (serverErrors.origins?.[0] ?? null);

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
    save.mutate({ origins: filled.map((r) => r.value.trim()) }, { onSuccess: () => setSaved(true) });
  }

  return (
    <Card>
      <CardHeader
        title="Allowed embed origins"
        description="Sites whose pages may show this workspace's signing pages in a frame. A signing URL for embedding names one of them, and only that site can frame it and hear its events. Every other signing page refuses to be framed."
      />
      <CardBody>
        <form onSubmit={onSubmit} noValidate className="space-y-4">
          {general ? <Alert tone="error">{general}</Alert> : null}
          {tooMany ? <Alert tone="error">{`At most ${MAX_EMBED_ORIGINS} origins`}</Alert> : null}
          {saved ? <Alert tone="success">Embed origins saved. New embedded signing URLs use this list.</Alert> : null}
          {rows.length === 0 ? (
            <p className="rounded-md border border-dashed border-zinc-300 px-4 py-6 text-center text-sm text-zinc-600">
              No origins: embedded signing is off. Add the origin of the page that will frame signing, such as https://app.example.com.
            </p>
          ) : (
            <ul className="space-y-3" aria-label="Allowed embed origins">
              {rows.map((row, i) => {
                const error = rowError(row);
                const id = `embed-origin-${row.key}`;
                return (
                  <li key={row.key}>
                    <div className="flex items-start gap-2">
                      <div className="min-w-0 flex-1">
                        <label htmlFor={id} className="sr-only">
                          Origin {i + 1}
                        </label>
                        <Input
                          id={id}
                          value={row.value}
                          onChange={(e) => update(row.key, e.target.value)}
                          placeholder="https://app.example.com"
                          className="font-mono"
                          inputMode="url"
                          autoComplete="off"
                          spellCheck={false}
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
                        Remove<span className="sr-only"> origin {i + 1}</span>
                      </Button>
                    </div>
                  </li>
                );
              })}
            </ul>
          )}
          <p className="text-sm text-zinc-600">
            The scheme, host and port only: https, or http for localhost and 127.0.0.1 while you develop. No paths and no wildcards.
          </p>
          <div className="flex flex-wrap items-center justify-between gap-3 border-t border-zinc-100 pt-4">
            <Button variant="secondary" onClick={add}>
              Add origin
            </Button>
            <Button type="submit" pending={save.isPending} disabled={invalid}>
              Save origins
            </Button>
          </div>
        </form>
      </CardBody>
    </Card>
  );
}
