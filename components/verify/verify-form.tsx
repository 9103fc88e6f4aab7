"use client";

import { useState, type FormEvent } from "react";
import { EVIDENCE_LEVEL_MEANING } from "@/common/evidence";
import type { TVerification } from "@/server/domain/sealing/schemas";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { formatDateTime, WITH_ZONE } from "@/components/lib/format";

type TState = { kind: "idle" } | { kind: "error"; message: string } | { kind: "done"; result: TVerification };

/** Posts the chosen PDF as the raw body to /api/app/verify and shows the verdict (announced to screen readers). */
export function VerifyForm() {
  const [file, setFile] = useState<File | null>(null);
  const [pending, setPending] = useState(false);
  const [state, setState] = useState<TState>({ kind: "idle" });

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (!file) {
      setState({ kind: "error", message: "Choose a PDF file to check" });
      return;
    }
    setPending(true);
    try {
      const res = await fetch("/api/app/verify", { method: "POST", headers: { "content-type": "application/pdf" }, body: file });
      const body = (await res.json().catch(() => ({}))) as { data?: TVerification; error?: string };
      setState(res.ok && body.data ? { kind: "done", result: body.data } : { kind: "error", message: body.error ?? `The check failed (${res.status})` });
    } catch {
      setState({ kind: "error", message: "The check could not reach the server. Try again." });
    } finally {
      setPending(false);
    }
  }

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-5">
      <Field label="PDF file" hint="A PDF downloaded from this instance: a sealed document, the merged PDF or the certificate.">
        {(p) => (
          <input
            {...p}
            type="file"
            name="file"
            accept="application/pdf,.pdf"
            onChange={(e) => {
              setFile(e.target.files?.[0] ?? null);
              setState({ kind: "idle" });
            }}
            className="block w-full text-sm text-zinc-700 file:mr-3 file:rounded-md file:border-0 file:bg-zinc-100 file:px-3 file:py-2 file:text-sm file:font-medium file:text-zinc-900 hover:file:bg-zinc-200"
          />
        )}
      </Field>
      <Button type="submit" className="w-full" pending={pending}>
        Verify
      </Button>
      <div aria-live="polite">
        {state.kind === "error" ? <Alert tone="error">{state.message}</Alert> : null}
        {state.kind === "done" ? <Verdict result={state.result} /> : null}
      </div>
    </form>
  );
}

const KIND = { signature: "Signature time-stamp", document: "Document time-stamp" } as const;

/** The file's evidence: its PAdES level, what that means, and each time-stamp with its time and authority. */
function Evidence({ evidence }: { evidence: NonNullable<TVerification["evidence"]> }) {
  return (
    <section
      aria-label="Time-stamp evidence"
      data-testid="verify-evidence"
      className="mt-3 rounded-md border border-zinc-200 bg-white px-4 py-3 text-sm text-zinc-800"
    >
      <p>
        <span className="font-medium">Evidence level: </span>
        <span data-testid="verify-evidence-level">PAdES {evidence.level}</span>
      </p>
      {evidence.timestamps.length === 0 ? (
        <p className="mt-1 font-medium text-amber-800" data-testid="verify-no-trusted-time">
          No trusted time: the signing time is this server&apos;s clock only.
        </p>
      ) : (
        <ul className="mt-2 space-y-2">
          {evidence.timestamps.map((t, i) => (
            <li key={i} data-testid="verify-timestamp">
              <p className="font-medium">
                {KIND[t.kind]}: <time dateTime={t.time}>{formatDateTime(t.time, WITH_ZONE)}</time> <span className="font-normal text-zinc-500">({t.time})</span>
              </p>
              <p className="break-words text-zinc-600">
                By {t.authority} · {t.valid ? "token checked: valid" : "token does NOT check out"}
              </p>
            </li>
          ))}
        </ul>
      )}
      <p className="mt-2 text-zinc-600">{EVIDENCE_LEVEL_MEANING[evidence.level]}</p>
    </section>
  );
}

function Verdict({ result }: { result: TVerification }) {
  if (!result.unaltered) {
    return (
      <Alert
        tone={result.sealedHere ? "error" : "warning"}
        title={result.sealedHere ? (result.test ? "Not valid (a TEST seal)" : "Not valid") : "Not sealed by this instance"}
      >
        {result.message}
        {result.evidence ? <Evidence evidence={result.evidence} /> : null}
      </Alert>
    );
  }
  const pkg = result.package;
  return (
    <Alert
      tone={result.test ? "warning" : "success"}
      title={result.test ? "TEST: sealed in a test workspace, not a valid signature" : "Valid: sealed by this instance and unchanged"}
    >
      <p>{result.message}</p>
      {result.newerVersion ? (
        <p className="mt-2 font-medium" data-testid="verify-newer-version">
          A newer version of this file exists (its time-stamp evidence was upgraded or renewed since this copy was downloaded).
        </p>
      ) : null}
      {pkg ? (
        <dl className="mt-3 grid grid-cols-[auto_1fr] gap-x-3 gap-y-1">
          <dt className="font-medium">Package</dt>
          <dd className="break-words">{pkg.title}</dd>
          <dt className="font-medium">Completed</dt>
          <dd>{pkg.completedAt ? <time dateTime={pkg.completedAt}>{formatDateTime(pkg.completedAt, WITH_ZONE)}</time> : "—"}</dd>
          <dt className="font-medium">Signed by</dt>
          <dd>
            <ul>
              {pkg.signers.map((name, i) => (
                <li key={i} className="break-words">
                  {name}
                </li>
              ))}
            </ul>
          </dd>
        </dl>
      ) : null}
      {result.evidence ? <Evidence evidence={result.evidence} /> : null}
    </Alert>
  );
}
