/** The one mapping from package rows to the API's shapes (never raw rows). */
import type { SQL } from "drizzle-orm";
import { isoText } from "@/server/db/driver";
import { packages, type documents, type recipientSessions, type TPackageEvidenceRow } from "@/server/db/schema";
import { toDocumentView } from "@/server/domain/documents/document-view";
import type { TPackageRow } from "./find-package";
import { toRecipientAuthenticationView } from "./recipient-authentication";
import type { TPackage, TPackageEvidence } from "./schemas";

type TSession = typeof recipientSessions.$inferSelect;
type TDocument = typeof documents.$inferSelect;

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/**
 * The same summary read as the API writes it, for hot reads (server/db/driver/prepared.ts): timestamps formatted by
 * the database exactly as `toPackageSummary` formats them (list-packages.test compares the two).
 */
export const packageSummaryHotColumns = {
  id: packages.id,
  title: packages.title,
  status: packages.status,
  externalId: packages.externalId,
  metadata: packages.metadata,
  templateId: packages.templateId,
  ownerUserId: packages.ownerUserId,
  sequential: packages.sequential,
  sendAt: isoText(packages.sendAt),
  scheduleError: packages.scheduleError,
  expiresAt: isoText(packages.expiresAt),
  expiredAt: isoText(packages.expiredAt),
  sentAt: isoText(packages.sentAt),
  firstViewedAt: isoText(packages.firstViewedAt),
  completedAt: isoText(packages.completedAt),
  declinedAt: isoText(packages.declinedAt),
  voidedAt: isoText(packages.voidedAt),
  createdAt: isoText(packages.createdAt) as SQL<string>,
  updatedAt: isoText(packages.updatedAt) as SQL<string>,
};

export function toPackageSummary(p: TPackageRow) {
  return {
    id: p.id,
    title: p.title,
    status: p.status,
    externalId: p.externalId,
    metadata: p.metadata,
    templateId: p.templateId,
    ownerUserId: p.ownerUserId,
    sequential: p.sequential,
    sendAt: iso(p.sendAt),
    scheduleError: p.scheduleError,
    expiresAt: iso(p.expiresAt),
    expiredAt: iso(p.expiredAt),
    sentAt: iso(p.sentAt),
    firstViewedAt: iso(p.firstViewedAt),
    completedAt: iso(p.completedAt),
    declinedAt: iso(p.declinedAt),
    voidedAt: iso(p.voidedAt),
    createdAt: p.createdAt.toISOString(),
    updatedAt: p.updatedAt.toISOString(),
  };
}

export function toSessionView(s: TSession) {
  return {
    id: s.id,
    order: s.position,
    roleIndex: s.roleIndex,
    roleName: s.roleName,
    email: s.email,
    name: s.name,
    signingGroupId: s.signingGroupId,
    status: s.status,
    sentAt: iso(s.sentAt),
    openedAt: iso(s.openedAt),
    completedAt: iso(s.completedAt),
    declinedAt: iso(s.declinedAt),
    declineReason: s.declineReason,
    authentication: toRecipientAuthenticationView(s),
    identity: s.identity,
  };
}

/** A document with its 0-based place among the package's documents, in order. */
export function toPackageDocumentView(d: TDocument, index: number) {
  return { ...toDocumentView(d), position: index };
}

/** Sealing shows only while it is due: every recipient finished, the sealed files not stored yet. */
export function toSealingView(p: TPackageRow) {
  if (p.status !== "IN_PROGRESS" || !p.sealRequestedAt) return null;
  return {
    state: p.sealFailedAt ? ("FAILED" as const) : p.sealLastError && !p.sealClaimToken && p.sealAttempts > 0 ? ("RETRYING" as const) : ("PENDING" as const),
    requestedAt: p.sealRequestedAt.toISOString(),
    attempts: p.sealAttempts,
    lastError: p.sealLastError,
    nextAttemptAt: iso(p.sealNextAttemptAt),
    failedAt: iso(p.sealFailedAt),
  };
}

/**
 * A sealed package's evidence (issue 20): its weakest file's level and time-stamp, and whether an upgrade is
 * pending. A package sealed before evidence was recorded has no row: its seal is B-B (this server's clock only).
 */
export function toEvidenceView(e: TPackageEvidenceRow | undefined): TPackageEvidence {
  if (!e) return { level: "B-B", timestampedAt: null, timestampAuthority: null, upgradePending: false };
  return { level: e.level, timestampedAt: iso(e.timestampedAt), timestampAuthority: e.timestampAuthority, upgradePending: e.upgradeNextAttemptAt !== null };
}

export function toPackageView(p: TPackageRow, sessions: TSession[], docs: TDocument[], evidence?: TPackageEvidenceRow): TPackage {
  return {
    ...toPackageSummary(p),
    message: p.message,
    voidReason: p.voidReason,
    reminders: p.reminders,
    mergeValues: p.mergeValues,
    questions: p.questions,
    answers: p.answers,
    recipientSessions: [...sessions].sort((a, b) => a.position - b.position).map(toSessionView),
    documents: [...docs].sort((a, b) => a.position - b.position).map((d, i) => toPackageDocumentView(d, i)),
    sealing: toSealingView(p),
    evidence: p.status === "COMPLETED" ? toEvidenceView(evidence) : null,
  };
}
