"use client";

import Link from "next/link";
import { Alert } from "@/components/ui/alert";
import { useSealingProblems } from "./query";

/**
 * The Overview's sealing alert (nothing while all is well, or while it loads): packages every recipient signed
 * whose sealing stopped — they wait for someone to retry them from their page — or keeps failing and retries
 * on its own, each with its last error and a link to the package.
 */
export function SealingProblems() {
  const problems = useSealingProblems().data;
  if (!problems || problems.total === 0) return null;
  const retrying = problems.total - problems.failed;
  const plural = (n: number) => (n === 1 ? "" : "s");
  const title = [
    problems.failed > 0 ? `Sealing stopped for ${problems.failed} package${plural(problems.failed)}` : null,
    retrying > 0
      ? `${problems.failed > 0 ? "failing for" : "Sealing is failing for"} ${retrying} ${problems.failed > 0 ? "more" : `package${plural(retrying)}`}, retrying automatically`
      : null,
  ]
    .filter(Boolean)
    .join("; ");
  return (
    <section aria-label="Sealing problems" className="mb-6" data-testid="sealing-problems">
      <Alert tone={problems.failed > 0 ? "error" : "warning"} title={title}>
        <p>
          {problems.failed > 0
            ? "Every recipient signed these packages, but their signed PDFs could not be made. Open one to see why and to retry sealing."
            : "Every recipient signed these packages; sealing failed and will be tried again."}
        </p>
        <ul className="mt-2 space-y-2">
          {problems.items.map((p) => (
            <li key={p.id} className="min-w-0">
              <Link href={`/packages/${p.id}`} className="font-medium underline">
                {p.title}
              </Link>{" "}
              — {p.state === "FAILED" ? `stopped after ${p.attempts} attempt${plural(p.attempts)}` : `${p.attempts} failed attempt${plural(p.attempts)}`}
              {p.lastError ? <span className="block break-words text-xs opacity-90">{p.lastError}</span> : null}
            </li>
          ))}
        </ul>
        {problems.total > problems.items.length ? <p className="mt-2 text-xs">And {problems.total - problems.items.length} more.</p> : null}
      </Alert>
    </section>
  );
}
