import { EVIDENCE_LEVELS, weakestLevel, type TEvidenceLevelName } from "@/common/evidence";
import type { TPackageEvidenceRow, TSealedFileRow } from "@/server/db/schema";
import { redactCredentials } from "@/server/lib/redact-url";
import type { TFileEvidence } from "@/server/pdf/evidence";

/** What a sealed file's row records of its evidence (server/db/schema/sealed-files.ts). */
export type TFileEvidenceColumns = Pick<TSealedFileRow, "evidenceLevel" | "timestampedAt" | "timestampAuthority" | "tsaCertificateNotAfter">;

/** What the package's row records: its weakest file's (server/db/schema/evidence.ts). */
export type TPackageEvidenceColumns = Pick<TPackageEvidenceRow, "level" | "timestampedAt" | "timestampAuthority" | "tsaCertificateNotAfter">;

/**
 * The columns of one file's evidence as the engine reported it: the level; the signature time-stamp's time and
 * authority (the trusted time of the signature; the first document time-stamp's if there is none); and, at
 * B-LTA, when the TSA certificate of the NEWEST document time-stamp expires (renewal is due before it).
 */
export function fileEvidenceColumns(evidence: TFileEvidence | undefined): TFileEvidenceColumns {
  if (!evidence) return { evidenceLevel: "B-B", timestampedAt: null, timestampAuthority: null, tsaCertificateNotAfter: null };
  const stamps = evidence.timestamps;
  const trusted = stamps.find((t) => t.kind === "signature") ?? stamps[0];
  const documentStamps = stamps.filter((t) => t.kind === "document").sort((a, b) => a.time.getTime() - b.time.getTime());
  const newest = documentStamps.at(-1);
  return {
    evidenceLevel: evidence.level,
    timestampedAt: trusted?.time ?? null,
    timestampAuthority: trusted?.authority ?? null,
    tsaCertificateNotAfter: evidence.level === "B-LTA" ? (newest?.tsaCertificateNotAfter ?? null) : null,
  };
}

/**
 * A package's evidence is its weakest file's: that file's level, time and authority. The renewal deadline is
 * the earliest over the files (each must be renewed before its own TSA certificate expires).
 */
export function packageEvidenceColumns(files: readonly TFileEvidenceColumns[]): TPackageEvidenceColumns {
  const level = weakestLevel(files.map((f) => f.evidenceLevel));
  const weakest = files.find((f) => f.evidenceLevel === level);
  const deadlines = files.map((f) => f.tsaCertificateNotAfter?.getTime()).filter((t): t is number => t !== undefined);
  return {
    level,
    timestampedAt: level === "B-B" ? null : (weakest?.timestampedAt ?? null),
    timestampAuthority: level === "B-B" ? null : (weakest?.timestampAuthority ?? null),
    tsaCertificateNotAfter: level === "B-LTA" && deadlines.length > 0 ? new Date(Math.min(...deadlines)) : null,
  };
}

export function isBelowLta(level: TEvidenceLevelName): boolean {
  return EVIDENCE_LEVELS.indexOf(level) < EVIDENCE_LEVELS.indexOf("B-LTA");
}

/** Why time-stamping failed, in one line fit for the audit trail and logs (no credentials, bounded). */
export function describeFailure(err: unknown): string {
  const text = redactCredentials(err instanceof Error ? err.message : String(err));
  return text.length > 500 ? `${text.slice(0, 499)}…` : text;
}
