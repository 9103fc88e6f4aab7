"use client";

import { errorMessage } from "@/components/lib/api-client";
import { formatDateTime, formatRelative } from "@/components/lib/format";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { CardBody } from "@/components/ui/card";
import { PackageEvidence } from "./package-evidence";
import { useRetrySeal, type TPackage } from "./query";

type TSealing = NonNullable<TPackage["sealing"]>;

const LINK =
  "inline-flex items-center justify-center rounded-md border border-zinc-300 bg-white px-3 py-2 text-sm font-medium text-zinc-900 hover:bg-zinc-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600";

function nextAttempt(sealing: TSealing): string {
  if (!sealing.nextAttemptAt) return "soon";
  return `${formatRelative(sealing.nextAttemptAt)} (${formatDateTime(sealing.nextAttemptAt)})`;
}

/**
 * Sealing while it is due. A failure is never a silent "pending": the owner sees that it failed, how many
 * attempts were made, why the last one failed (the worker stores the reason in words, e.g. "The original of
 * “lease.pdf” is missing from storage") and when the next one runs. Sealing retries on its own, backing off to
 * at most an hour between attempts, a bounded number of times; once it stops (FAILED) the page says so and a
 * member who can send packages may retry it.
 */
function SealingStatus({ id, sealing, canSend }: { id: string; sealing: TSealing; canSend: boolean }) {
  const retry = useRetrySeal(id);
  const failedBefore = sealing.lastError !== null;
  if (sealing.state === "FAILED") {
    const error = errorMessage(retry.error);
    return (
      <Alert tone="error" title={`Sealing stopped after ${sealing.attempts === 1 ? "1 attempt" : `${sealing.attempts} attempts`}`}>
        <p data-testid="sealing-error">Last error: {sealing.lastError ?? "the attempt failed without a reason."}</p>
        <p>
          {sealing.failedAt ? `Stopped ${formatDateTime(sealing.failedAt)}. ` : null}
          Every recipient has signed, but the signed PDF and the certificate could not be made, and no further attempt will run on its own.
          {canSend
            ? " Retry once the cause is fixed (your administrator can read the server log), or void the package."
            : " Ask someone who can send packages to retry it, or your administrator to look at the server log."}
        </p>
        {canSend ? (
          <div className="mt-3 flex flex-wrap items-center gap-3">
            <Button size="sm" variant="secondary" pending={retry.isPending} onClick={() => retry.mutate(undefined)}>
              Retry sealing
            </Button>
            {error ? <span className="text-sm text-red-700">{error}</span> : null}
          </div>
        ) : null}
      </Alert>
    );
  }
  if (sealing.state === "RETRYING") {
    return (
      <Alert tone="error" title={`Sealing failed ${sealing.attempts === 1 ? "once" : `${sealing.attempts} times`}: retrying automatically`}>
        <p data-testid="sealing-error">Last error: {sealing.lastError ?? "the attempt failed without a reason."}</p>
        <p>
          Next attempt {nextAttempt(sealing)}. Every recipient has signed; the signed PDF and the certificate will be here as soon as an attempt succeeds. If
          this keeps failing, ask your administrator to look at the server log.
        </p>
      </Alert>
    );
  }
  return (
    <Alert tone={failedBefore ? "warning" : "info"} title={sealing.attempts > 0 ? `Sealing (attempt ${sealing.attempts})` : "Sealing"}>
      <p>Every recipient has signed. The signed PDF and the certificate of completion are being made; this page updates by itself.</p>
      {failedBefore ? <p data-testid="sealing-error">The previous attempt failed: {sealing.lastError}</p> : null}
    </Alert>
  );
}

/**
 * The package page's files panel: while sealing is due, what it is doing (and why the last attempt failed and
 * when the next one runs); once COMPLETED, the three downloads (the app twins of ops 23–25); otherwise what
 * will be here, or why nothing will.
 */
export function PackageFiles({ pkg, canSend }: { pkg: Pick<TPackage, "id" | "status" | "sealing" | "evidence">; canSend: boolean }) {
  if (pkg.sealing) {
    return (
      <CardBody>
        <SealingStatus id={pkg.id} sealing={pkg.sealing} canSend={canSend} />
      </CardBody>
    );
  }
  if (pkg.status === "COMPLETED") {
    const base = `/api/app/packages/${encodeURIComponent(pkg.id)}`;
    return (
      <CardBody className="space-y-3">
        <p className="text-sm text-zinc-600">Sealed with a digital signature; any change to a file breaks it. Anyone can check a copy at /verify.</p>
        <nav aria-label="Signed files" className="grid gap-2 sm:flex sm:flex-wrap">
          <a className={LINK} href={`${base}/download`} download>
            Download signed PDF
          </a>
          <a className={LINK} href={`${base}/download/zip`} download>
            Download zip
          </a>
          <a className={LINK} href={`${base}/certificate`} download>
            Download certificate
          </a>
        </nav>
        {pkg.evidence ? <PackageEvidence evidence={pkg.evidence} /> : null}
      </CardBody>
    );
  }
  const ended = pkg.status === "VOID" || pkg.status === "DECLINED";
  return (
    <CardBody>
      <p className="text-sm text-zinc-500">
        {ended
          ? "This package ended before everyone signed: there are no signed files."
          : "Once every recipient has signed, the sealed PDF, a zip of every document and the certificate of completion are offered here."}
      </p>
    </CardBody>
  );
}
