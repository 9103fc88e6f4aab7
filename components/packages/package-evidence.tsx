import { EVIDENCE_LEVEL_MEANING } from "@/common/evidence";
import { formatDateTime } from "@/components/lib/format";
import type { TPackage } from "./query";

/**
 * A sealed package's evidence (issue 20): the PAdES level its weakest file reaches and what that means for a
 * reader of the PDF, the trusted time and who vouches for it — or, at B-B, that the files carry no trusted time,
 * and whether an upgrade is pending (no time-stamping authority answered when it was sealed).
 */
export function PackageEvidence({ evidence }: { evidence: NonNullable<TPackage["evidence"]> }) {
  return (
    <div data-testid="package-evidence" className="rounded-md border border-zinc-200 bg-zinc-50 px-4 py-3 text-sm">
      <dl className="grid gap-x-4 gap-y-1 sm:grid-cols-[10rem_minmax(0,1fr)]">
        <dt className="text-zinc-500">Evidence level</dt>
        <dd className="font-medium text-zinc-900" data-testid="evidence-level">
          PAdES {evidence.level}
        </dd>
        <dt className="text-zinc-500">Trusted time</dt>
        <dd className="text-zinc-900">{evidence.timestampedAt ? formatDateTime(evidence.timestampedAt) : "None: this server's clock only"}</dd>
        {evidence.timestampAuthority ? (
          <>
            <dt className="text-zinc-500">Time-stamped by</dt>
            <dd className="break-words text-zinc-900">{evidence.timestampAuthority}</dd>
          </>
        ) : null}
      </dl>
      <p className="mt-2 text-zinc-600">{EVIDENCE_LEVEL_MEANING[evidence.level]}</p>
      {evidence.upgradePending ? (
        <p className="mt-2 text-amber-800" data-testid="evidence-upgrade-pending">
          Time-stamp pending: no time-stamping authority answered when the package was sealed. It is retried automatically, and the files are upgraded in place;
          downloads then serve the upgraded version.
        </p>
      ) : null}
    </div>
  );
}
