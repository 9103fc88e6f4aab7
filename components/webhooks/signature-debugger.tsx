"use client";

import { useId, useState, type FormEvent } from "react";
import { errorMessage, fieldErrors } from "@/components/lib/api-client";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import type { TDeliveryDetail } from "./query";
import { useCheckSignature } from "./query";

const DIFFERS = { secret: "The secret differs", timestamp: "The timestamp differs", body: "The body differs" } as const;

/**
 * For the latest attempt of a delivery: the exact string x-foliosign-signature signs, and a box for the digest
 * the user's receiver computed. The server answers "match" or names the input that differs — or says it
 * cannot tell (an HMAC does not reveal its inputs; only a reproduced variant can).
 */
export function SignatureDebugger({ detail }: { detail: TDeliveryDetail }) {
  const check = useCheckSignature(detail.endpointId, detail.id);
  const [digest, setDigest] = useState("");
  const id = useId();
  const signed = detail.request.signedString;
  if (!signed) return <p className="text-sm text-zinc-500">Nothing has been sent for this delivery yet, so there is no signature to check.</p>;
  const ts = detail.request.headers?.["x-foliosign-timestamp"] ?? "";
  const fieldError = fieldErrors(check.error).digest?.[0];

  function submit(e: FormEvent) {
    e.preventDefault();
    check.mutate({ digest });
  }

  const v = check.data;
  return (
    <div className="space-y-3">
      <p className="text-sm text-zinc-600">
        Your receiver computes HMAC-SHA256, keyed with the endpoint secret, over the <code className="font-mono text-xs">x-foliosign-timestamp</code> header (
        <code className="font-mono text-xs">{ts}</code>), a full stop, then the raw body — exactly this string:
      </p>
      <pre
        className="max-h-40 overflow-auto rounded-md bg-zinc-950 p-3 font-mono text-xs break-all whitespace-pre-wrap text-zinc-100"
        data-testid="signed-string"
      >
        {signed}
      </pre>
      <form onSubmit={submit} className="space-y-2" noValidate>
        <label htmlFor={id} className="block text-sm font-medium text-zinc-800">
          Digest your receiver computed (hex, with or without <code className="font-mono text-xs">v1=</code>)
        </label>
        <div className="flex gap-2">
          <Input
            id={id}
            value={digest}
            onChange={(e) => setDigest(e.target.value)}
            className="font-mono"
            placeholder="e.g. 5257a869e7ecebeda32affa62cdca3fa51cad7e77a0e56ff536d0ce8e108d8bd"
            aria-invalid={Boolean(fieldError)}
          />
          <Button type="submit" pending={check.isPending}>
            Check
          </Button>
        </div>
      </form>
      {fieldError ? <Alert tone="error">{fieldError}</Alert> : check.isError ? <Alert tone="error">{errorMessage(check.error)}</Alert> : null}
      {v ? (
        v.match ? (
          <Alert tone="success" title="Match">
            {v.message}
          </Alert>
        ) : (
          <Alert tone="error" title={v.differs ? DIFFERS[v.differs] : "No match — cannot tell which input differs"}>
            {v.message}
          </Alert>
        )
      ) : null}
    </div>
  );
}
