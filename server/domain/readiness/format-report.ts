import type { TReadinessReport, TReadinessStatus } from "./types";

const MARK: Record<TReadinessStatus, string> = { ok: "OK  ", warn: "WARN", fail: "FAIL" };

/** The report as `npm run doctor` prints it: one block per check, its verdict, what to do, and what was found. */
export function formatReadinessText(report: TReadinessReport): string {
  const lines = [`Foliosign readiness (${report.generatedAt})`, ""];
  for (const c of report.checks) {
    lines.push(`[${MARK[c.status]}] ${c.title}: ${c.verdict}`);
    if (c.action) lines.push(`       What to do: ${c.action}`);
    for (const f of c.facts) lines.push(`       ${f.label}: ${f.value}`);
    lines.push("");
  }
  const counts = (["fail", "warn", "ok"] as const).map((s) => `${report.checks.filter((c) => c.status === s).length} ${s}`).join(", ");
  lines.push(`Overall: ${report.status.toUpperCase()} (${counts}).`);
  return lines.join("\n");
}
