"use client";

import Link from "next/link";
import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useMemo, useRef, useState, type ReactNode } from "react";
import { errorMessage } from "@/components/lib/api-client";
import { formatDateTime, formatRelative } from "@/components/lib/format";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { PackageStatusBadge, SessionStatusBadge } from "./badges";
import { PackageActions, unavailable, type TAsk } from "./package-actions";
import { PackageFiles } from "./package-files";
import { PackageMail } from "./package-mail";
import { PackageShares } from "./package-shares";
import { RecipientAuthentication } from "./recipient-authentication";
import { packageKeys, useMembers, usePackage, usePackageAudit, type TAuditEventList, type TPackage } from "./query";

type TEvent = TAuditEventList["auditEvents"][number];

const ACTIONS: Record<string, string> = {
  "package.created": "Created",
  "package.updated": "Changed",
  "package.scheduled": "Scheduled",
  "package.sent": "Sent",
  "package.held": "Put on hold",
  "package.resumed": "Resumed",
  "package.voided": "Voided",
  "package.deleted": "Deleted",
  "package.transferred": "Transferred",
  "package.shared": "Shared",
  "package.unshared": "Stopped sharing",
  "package.reminded": "Reminder sent",
  "package.signing_url_created": "Signing link created",
  "package.document_added": "Document added",
  "package.document_deleted": "Document removed",
  "package.recipient_added": "Recipient added",
  "package.recipient_updated": "Recipient changed",
  "package.recipient_removed": "Recipient removed",
  "session.opened": "Opened by a recipient",
  "session.completed": "Signed by a recipient",
  "session.declined": "Declined by a recipient",
  "session.consented": "Agreed to sign electronically",
  "package.completed": "Sealed and completed",
  "package.evidence_degraded": "Sealed without a trusted time (no time-stamping authority answered)",
  "package.evidence_upgraded": "Time-stamp evidence upgraded",
  "package.evidence_renewed": "Time-stamp evidence renewed",
  "recipient.authentication.requested": "Email code sent to a recipient",
  "recipient.authentication.passed": "Identity check passed",
  "recipient.authentication.failed": "Wrong code entered",
  "recipient.authentication.locked": "Locked after too many wrong codes",
  "recipient.authentication.unlocked": "Unlocked by the sender",
};

function actionLabel(action: string): string {
  return ACTIONS[action] ?? action.replace(/^[a-z]+\./, "").replaceAll("_", " ");
}

/** Whom a share event concerns, shown under its label. */
function shareTarget(e: TEvent): string | null {
  if (e.action !== "package.shared" && e.action !== "package.unshared") return null;
  const email = typeof e.data.email === "string" ? e.data.email : null;
  if (!email) return null;
  return e.data.memberRemoved === true ? `With ${email} (removed from the organisation)` : `With ${email}`;
}

/**
 * Who acted. A recipient's own steps (opened, signed, declined, the identity check) have no member or key: they
 * name the recipient, by the name the sender gave and the email the event recorded, never "Foliosign".
 */
function actorLabel(e: TEvent, sessions: TPackage["recipientSessions"]): string {
  const recipientEmail = !e.actorEmail && !e.actorUserId && typeof e.data.email === "string" ? e.data.email : null;
  if (recipientEmail) {
    const name = sessions.find((s) => s.email === recipientEmail)?.name;
    return name ? `${name} (${recipientEmail})` : recipientEmail;
  }
  const who = e.actorEmail ?? (e.actorUserId ? "A member" : "Foliosign");
  return e.apiKeyId ? `${who} (API key)` : who;
}

/** The dates that matter for this package, in the order they happen. */
function keyDates(p: TPackage): [string, string][] {
  const rows: [string, string | null][] = [
    ["Created", p.createdAt],
    ["Scheduled for", p.status === "SCHEDULED" ? p.sendAt : null],
    ["Sent", p.sentAt],
    ["First viewed", p.firstViewedAt],
    ["Completed", p.completedAt],
    ["Declined", p.declinedAt],
    [p.expiredAt ? "Expired" : "Voided", p.expiredAt ?? p.voidedAt],
    ["Expires", p.expiredAt ? null : p.expiresAt],
  ];
  return rows.filter((r): r is [string, string] => r[1] !== null);
}

function Section({
  title,
  description,
  children,
  testId,
  className,
}: {
  title: string;
  description?: ReactNode;
  children: ReactNode;
  testId?: string;
  className?: string;
}) {
  return (
    <Card className={className}>
      <CardHeader title={title} description={description} />
      <div data-testid={testId}>{children}</div>
    </Card>
  );
}

/**
 * The page polls the package while it is being sealed; when its state moves on by itself (sealed, an attempt
 * failed, a recipient signed elsewhere), the trail and the mail follow (they are not polled).
 */
function useRefreshOnProgress(packageId: string, pkg: TPackage | undefined) {
  const qc = useQueryClient();
  const progress = pkg ? `${pkg.status}:${pkg.sealing?.attempts ?? ""}:${pkg.sealing?.state ?? ""}:${pkg.updatedAt}` : null;
  const seen = useRef<string | null>(null);
  useEffect(() => {
    if (progress === null) return;
    if (seen.current !== null && seen.current !== progress) {
      void qc.invalidateQueries({ queryKey: packageKeys.audit(packageId), exact: true });
      void qc.invalidateQueries({ queryKey: packageKeys.mail(packageId), exact: true });
    }
    seen.current = progress;
  }, [progress, packageId, qc]);
}

/** A package: its state and dates, recipients in signing order, documents, its timeline and every action. */
export function PackageDetail({ packageId, canSend }: { packageId: string; canSend: boolean }) {
  const query = usePackage(packageId);
  const audit = usePackageAudit(packageId);
  const members = useMembers();
  const [ask, setAsk] = useState<TAsk | null>(null);
  const [sessionId, setSessionId] = useState<string | null>(null);
  const owner = useMemo(() => members.data?.find((m) => m.userId === query.data?.ownerUserId), [members.data, query.data?.ownerUserId]);
  useRefreshOnProgress(packageId, query.data);

  if (query.isPending) return <p className="py-10 text-center text-sm text-zinc-500">Loading the package…</p>;
  if (query.isError) {
    return (
      <Alert tone="error" title="The package could not be loaded">
        {errorMessage(query.error)}{" "}
        <Link href="/packages" className="font-medium underline">
          Back to packages
        </Link>
      </Alert>
    );
  }
  const pkg = query.data;
  const onAsk = (next: TAsk | null, id: string | null = null) => {
    setAsk(next);
    setSessionId(id);
  };

  return (
    <div className="space-y-6">
      <header className="space-y-3">
        <Link href="/packages" className="text-sm text-zinc-500 hover:text-zinc-800">
          ← Packages
        </Link>
        <div className="flex flex-wrap items-center gap-3">
          <h1 className="min-w-0 text-2xl font-semibold tracking-tight wrap-anywhere text-zinc-900">{pkg.title}</h1>
          <span data-testid="package-status">
            <PackageStatusBadge pkg={pkg} />
          </span>
        </div>
        <dl className="grid grid-cols-2 gap-x-6 gap-y-2 text-sm sm:grid-cols-3 lg:grid-cols-5" data-testid="package-dates">
          {keyDates(pkg).map(([label, iso]) => (
            <div key={label} className="min-w-0">
              <dt className="text-xs text-zinc-500">{label}</dt>
              <dd className="text-zinc-900" title={formatRelative(iso)}>
                {formatDateTime(iso)}
              </dd>
            </div>
          ))}
          <div className="min-w-0">
            <dt className="text-xs text-zinc-500">Owner</dt>
            <dd className="truncate text-zinc-900">{owner ? owner.name : "—"}</dd>
          </div>
          {pkg.externalId ? (
            <div className="min-w-0">
              <dt className="text-xs text-zinc-500">External id</dt>
              <dd className="truncate font-mono text-xs text-zinc-900">{pkg.externalId}</dd>
            </div>
          ) : null}
        </dl>
        {pkg.scheduleError ? (
          <Alert tone="error" title="The scheduled send did not happen">
            {pkg.scheduleError}
          </Alert>
        ) : null}
        {pkg.status === "VOID" && pkg.voidReason ? (
          <Alert tone="warning" title="Voided">
            {pkg.voidReason}
          </Alert>
        ) : null}
        {pkg.status === "ON_HOLD" ? <Alert tone="warning">On hold: recipients cannot sign and no reminders go out until it is resumed.</Alert> : null}
        <PackageActions pkg={pkg} canSend={canSend} ask={ask} sessionId={sessionId} onAsk={onAsk} />
      </header>

      <div className="grid gap-6 lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
        <div className="min-w-0 space-y-6">
          <Section
            title="Recipients"
            description={pkg.sequential ? "They sign one after another, in this order." : "They all sign at the same time."}
            testId="recipients"
          >
            <ol className="divide-y divide-zinc-100">
              {pkg.recipientSessions.map((s) => {
                const turn = pkg.status === "IN_PROGRESS" && (s.status === "SENT" || s.status === "OPENED");
                const when: [string, string] | null = s.completedAt
                  ? ["Signed", s.completedAt]
                  : s.declinedAt
                    ? ["Declined", s.declinedAt]
                    : s.openedAt
                      ? ["Opened", s.openedAt]
                      : s.sentAt
                        ? ["Invited", s.sentAt]
                        : null;
                return (
                  <li key={s.id} className="flex flex-wrap items-start gap-x-4 gap-y-2 px-6 py-4" data-testid="recipient-row">
                    <span className="mt-0.5 flex size-6 shrink-0 items-center justify-center rounded-full bg-zinc-100 text-xs font-medium text-zinc-600">
                      {s.order + 1}
                    </span>
                    <div className="min-w-0 flex-1">
                      <p className="font-medium break-all text-zinc-900">{s.name ?? s.email ?? "—"}</p>
                      <p className="text-sm break-all text-zinc-600">
                        {s.name ? s.email : null}
                        {s.roleName ? (
                          <span className="text-zinc-500">
                            {s.name ? " · " : ""}
                            {s.roleName}
                          </span>
                        ) : null}
                      </p>
                      {s.declineReason ? <p className="mt-1 text-sm text-red-700">Declined: {s.declineReason}</p> : null}
                    </div>
                    <div className="flex flex-col items-end gap-1">
                      <SessionStatusBadge status={s.status} />
                      {when ? (
                        <span className="text-right text-xs text-zinc-500">
                          {when[0]} {formatDateTime(when[1])}
                        </span>
                      ) : null}
                    </div>
                    <div className="w-full pl-10">
                      <RecipientAuthentication packageId={pkg.id} session={s} canSend={canSend} />
                    </div>
                    {turn ? (
                      <div className="flex w-full flex-wrap justify-end gap-2 sm:w-auto sm:basis-full">
                        <Button size="sm" variant="ghost" onClick={() => onAsk("remind", s.id)} disabled={unavailable("remind", pkg, canSend) !== null}>
                          Remind
                        </Button>
                        <Button size="sm" variant="ghost" onClick={() => onAsk("link", s.id)} disabled={unavailable("link", pkg, canSend) !== null}>
                          Copy signing link
                        </Button>
                      </div>
                    ) : null}
                  </li>
                );
              })}
            </ol>
          </Section>
          <Section
            title="Signed files"
            description={pkg.status === "COMPLETED" ? "The sealed PDF, every document in a zip, and the certificate of completion." : undefined}
            testId="package-files"
          >
            <PackageFiles pkg={pkg} canSend={canSend} />
          </Section>
          <Section title="Documents" testId="documents">
            {pkg.documents.length === 0 ? (
              <CardBody>
                <p className="text-sm text-zinc-500">No documents.</p>
              </CardBody>
            ) : (
              <ul className="divide-y divide-zinc-100">
                {pkg.documents.map((d) => (
                  <li key={d.id} className="flex items-center justify-between gap-4 px-6 py-3 text-sm">
                    <span className="min-w-0 truncate font-medium text-zinc-900">{d.name}</span>
                    <span className="shrink-0 text-zinc-500">
                      {d.uploadState === "AWAITING_UPLOAD"
                        ? "Waiting for upload"
                        : d.pageCount
                          ? `${d.pageCount} ${d.pageCount === 1 ? "page" : "pages"}`
                          : "PDF"}
                    </span>
                  </li>
                ))}
              </ul>
            )}
          </Section>
          {Object.keys(pkg.mergeValues).length + Object.keys(pkg.metadata).length + pkg.questions.length > 0 ? (
            <Section title="Details" testId="package-values">
              <dl className="divide-y divide-zinc-100 text-sm">
                {[
                  ...Object.entries(pkg.mergeValues).map(([k, v]) => [`Merge field · ${k}`, v] as const),
                  ...pkg.questions.map((q) => [q.label, pkg.answers[q.key] ?? "Not answered"] as const),
                  ...Object.entries(pkg.metadata).map(([k, v]) => [`Metadata · ${k}`, v] as const),
                ].map(([k, v]) => (
                  <div key={k} className="grid gap-1 px-6 py-3 sm:grid-cols-[12rem_minmax(0,1fr)]">
                    <dt className="text-zinc-500">{k}</dt>
                    <dd className="break-words text-zinc-900">{v}</dd>
                  </div>
                ))}
              </dl>
            </Section>
          ) : null}
        </div>
        <div className="min-w-0 space-y-6 self-start">
          {canSend ? (
            <Section title="Mail" description="Every message about this package and whether it was delivered." testId="package-mail">
              <PackageMail packageId={packageId} />
            </Section>
          ) : null}
          <Section title="Shared with" description="Members who see this package although their role does not show every package." testId="package-shares">
            <PackageShares pkg={pkg} />
          </Section>
          <Section title="Timeline" description="Newest first" testId="timeline">
            {audit.isPending ? (
              <CardBody>
                <p className="text-sm text-zinc-500">Loading…</p>
              </CardBody>
            ) : audit.isError ? (
              <CardBody>
                <Alert tone="error">{errorMessage(audit.error)}</Alert>
              </CardBody>
            ) : (
              <ol className="space-y-0 px-6 py-4">
                {audit.data.auditEvents.map((e) => (
                  <li key={e.id} className="relative border-l border-zinc-200 pb-4 pl-5 last:pb-0" data-testid="timeline-event">
                    <span className="absolute top-1.5 -left-[5px] size-2.5 rounded-full bg-brand-600 ring-4 ring-white" aria-hidden="true" />
                    <p className="text-sm font-medium text-zinc-900">{actionLabel(e.action)}</p>
                    {typeof e.data.reason === "string" && e.data.reason ? <p className="text-sm text-zinc-700">“{e.data.reason}”</p> : null}
                    {shareTarget(e) ? <p className="text-sm break-all text-zinc-700">{shareTarget(e)}</p> : null}
                    <p className="text-xs text-zinc-500">
                      <span className="break-all">{actorLabel(e, pkg.recipientSessions)}</span> ·{" "}
                      <time dateTime={e.createdAt}>{formatDateTime(e.createdAt)}</time>
                    </p>
                  </li>
                ))}
                {audit.data.totalCount > audit.data.auditEvents.length ? (
                  <li className="pt-2 text-xs text-zinc-500">
                    The {audit.data.auditEvents.length} newest of {audit.data.totalCount} events; the API lists them all.
                  </li>
                ) : null}
              </ol>
            )}
          </Section>
        </div>
      </div>
    </div>
  );
}
