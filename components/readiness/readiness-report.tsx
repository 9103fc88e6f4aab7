import type { TReadinessCheck, TReadinessReport, TReadinessStatus } from "@/server/domain/readiness/types";
import { Badge, type TBadgeTone } from "@/components/ui/badge";
import { Card, CardBody } from "@/components/ui/card";
import { formatDateTime } from "@/components/lib/format";

const TONE: Record<TReadinessStatus, TBadgeTone> = { ok: "success", warn: "warning", fail: "danger" };
const LABEL: Record<TReadinessStatus, string> = { ok: "OK", warn: "Warning", fail: "Fails" };

export function ReadinessStatusBadge({ status }: { status: TReadinessStatus }) {
  return <Badge tone={TONE[status]}>{LABEL[status]}</Badge>;
}

/**
 * A verdict or an action as written for both the terminal and the page: what stands between backticks is a
 * command or a name, shown as code here (the doctor prints the backticks as they are).
 */
function WithCode({ text }: { text: string }) {
  const parts = text.split("`");
  // An odd number of backticks: shown as written rather than guessed at.
  if (parts.length % 2 === 0) return <>{text}</>;
  return (
    <>
      {parts.map((part, i) =>
        i % 2 ? (
          <code key={i} className="font-mono text-[0.9em] text-zinc-900">
            {part}
          </code>
        ) : (
          part
        ),
      )}
    </>
  );
}

function CheckCard({ check, extra }: { check: TReadinessCheck; extra?: React.ReactNode }) {
  return (
    <Card>
      <CardBody className="space-y-3">
        <div className="flex flex-wrap items-center justify-between gap-2">
          <h2 className="text-base font-semibold text-zinc-900">{check.title}</h2>
          <ReadinessStatusBadge status={check.status} />
        </div>
        <p className="text-sm break-words text-zinc-800">
          <WithCode text={check.verdict} />
        </p>
        {check.action ? (
          <p className="text-sm break-words text-zinc-700">
            <span className="font-medium text-zinc-900">What to do: </span>
            <WithCode text={check.action} />
          </p>
        ) : null}
        {check.facts.length > 0 ? (
          <dl className="grid gap-x-4 gap-y-1 rounded-md bg-zinc-50 px-3 py-2 text-sm sm:grid-cols-[minmax(9rem,auto)_1fr]">
            {check.facts.map((f) => (
              <div key={f.label} className="contents">
                <dt className="break-all text-zinc-600">{f.label}</dt>
                <dd className="font-mono text-xs break-all text-zinc-900 sm:text-sm">{f.value}</dd>
              </div>
            ))}
          </dl>
        ) : null}
        {extra}
      </CardBody>
    </Card>
  );
}

/** The report, one card per check; `extras` adds a control under a check (the SMTP test message). */
export function ReadinessReport({ report, extras = {} }: { report: TReadinessReport; extras?: Partial<Record<TReadinessCheck["name"], React.ReactNode>> }) {
  const failing = report.checks.filter((c) => c.status === "fail").length;
  const warning = report.checks.filter((c) => c.status === "warn").length;
  return (
    <div className="space-y-4">
      <p className="flex flex-wrap items-center gap-2 text-sm text-zinc-700" data-testid="readiness-summary">
        <ReadinessStatusBadge status={report.status} />
        <span>
          {failing === 0 && warning === 0
            ? "Every check passed."
            : `${failing} failing, ${warning} with a warning, ${report.checks.length - failing - warning} OK.`}{" "}
          Checked {formatDateTime(report.generatedAt)}.
        </span>
      </p>
      {report.checks.map((c) => (
        <CheckCard key={c.name} check={c} extra={extras[c.name]} />
      ))}
    </div>
  );
}
