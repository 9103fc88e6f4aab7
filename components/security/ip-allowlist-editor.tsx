"use client";

import { useState, type FormEvent } from "react";
import { errorMessage, fieldErrors } from "@/components/lib/api-client";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { Input } from "@/components/ui/input";
import { isIpOrCidr } from "@/common/ip-entry";
import { useIpAllowlist, useSetIpAllowlist } from "./query";

type TRow = { key: number; value: string };
const INVALID = "Enter an IPv4 or IPv6 address, or a CIDR range such as 203.0.113.0/24";

export function IpAllowlistEditor() {
  const allowlist = useIpAllowlist();
  if (allowlist.isPending) return <p className="text-sm text-zinc-500">Loading the allowlist…</p>;
  if (allowlist.isError) return <Alert tone="error">{errorMessage(allowlist.error)}</Alert>;
  return <Editor initial={allowlist.data.entries} />;
}

function Editor({ initial }: { initial: string[] }) {
  const save = useSetIpAllowlist();
  const [rows, setRows] = useState<TRow[]>(() => initial.map((value, key) => ({ key, value })));
  const [nextKey, setNextKey] = useState(initial.length);
  const [saved, setSaved] = useState(false);
  // The entries sent, with the row each came from, so a server error on `entries.<i>` lands on its row.
  const filled = rows.filter((r) => r.value.trim() !== "");
  const serverErrors = fieldErrors(save.error);
  const rowError = (row: TRow): string | undefined => {
    if (row.value.trim() !== "" && !isIpOrCidr(row.value.trim())) return INVALID;
    const index = filled.indexOf(row);
    return index >= 0 ? serverErrors[`entries.${index}`]?.[0] : undefined;
  };
  const invalid = rows.some((r) => r.value.trim() !== "" && !isIpOrCidr(r.value.trim()));
  const general = save.error && Object.keys(serverErrors).length === 0 ? errorMessage(save.error) : (serverErrors.entries?.[0] ?? null);

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
    save.mutate({ entries: filled.map((r) => r.value.trim()) }, { onSuccess: () => setSaved(true) });
  }

  return (
    <Card>
      <CardHeader
        title="IP allowlist"
        description="When the list has entries, API calls from any other address are refused (403 “IP address not allowed”). Signing in to this app is not affected."
      />
      <CardBody>
        <form onSubmit={onSubmit} noValidate className="space-y-4">
          {general ? <Alert tone="error">{general}</Alert> : null}
          {saved ? <Alert tone="success">Allowlist saved. It applies to the next API request.</Alert> : null}
          {rows.length === 0 ? (
            <p className="rounded-md border border-dashed border-zinc-300 px-4 py-6 text-center text-sm text-zinc-500">
              No allowlist: API keys work from any address. Add an address or range to restrict them.
            </p>
          ) : (
            <ul className="space-y-3" aria-label="Allowed addresses">
              {rows.map((row, i) => {
                const error = rowError(row);
                const id = `ip-entry-${row.key}`;
                return (
                  <li key={row.key}>
                    <div className="flex items-start gap-2">
                      <div className="flex-1">
                        <label htmlFor={id} className="sr-only">
                          Address or range {i + 1}
                        </label>
                        <Input
                          id={id}
                          value={row.value}
                          onChange={(e) => update(row.key, e.target.value)}
                          placeholder="203.0.113.0/24 or 2001:db8::/32"
                          className="font-mono"
                          aria-invalid={Boolean(error)}
                          aria-describedby={error ? `${id}-error` : undefined}
                          autoFocus={row.key === nextKey - 1 && row.value === ""}
                        />
                        {error ? (
                          <p id={`${id}-error`} className="mt-1 text-sm text-red-700">
                            {error}
                          </p>
                        ) : null}
                      </div>
                      <Button variant="ghost" onClick={() => remove(row.key)}>
                        Remove<span className="sr-only"> address {i + 1}</span>
                      </Button>
                    </div>
                  </li>
                );
              })}
            </ul>
          )}
          <div className="flex flex-wrap items-center justify-between gap-3 border-t border-zinc-100 pt-4">
            <Button variant="secondary" onClick={add}>
              Add address or range
            </Button>
            <Button type="submit" pending={save.isPending} disabled={invalid}>
              Save allowlist
            </Button>
          </div>
        </form>
      </CardBody>
    </Card>
  );
}
