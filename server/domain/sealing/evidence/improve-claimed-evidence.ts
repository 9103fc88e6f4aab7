import { Readable } from "node:stream";
import { and, asc, eq } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { packageEvidence, packages, sealedFiles, sealedFileVersions, type TSealedFileRow } from "@/server/db/schema";
import { auditChange } from "@/server/domain/audit/audit-change";
import { serviceActor } from "@/server/domain/packages/package-actor";
import { env } from "@/server/env";
import { now } from "@/server/lib/clock";
import { newId } from "@/server/lib/ids";
import { logger } from "@/server/lib/logger";
import { renewEvidence, upgradeEvidence, type TEvidenceConfig } from "@/server/pdf/evidence";
import { getFileStore } from "@/server/storage/get-file-store";
import { evidenceConfig } from "./evidence-config";
import { describeFailure, fileEvidenceColumns, isBelowLta, packageEvidenceColumns, type TFileEvidenceColumns } from "./file-evidence";
import { renewalRetryDelay, upgradeRetryDelay, type TEvidenceClaim } from "./jobs";

export type TEvidenceOutcome = "upgraded" | "renewed" | "failed" | "superseded";

export type TEvidenceOptions = {
  /** The time-stamping configuration; default `evidenceConfig()` (TSA_URLS). Tests pass a loopback TSA's. */
  evidence?: TEvidenceConfig | null;
  /** EVIDENCE_RENEWAL_DAYS unless given. */
  renewalDays?: number;
  /** Test hook: runs once the new versions are stored, before the fenced commit. */
  beforeStore?: () => Promise<void>;
};

/** A renewal that could not push the deadline out of the window (the TSA has no fresher certificate) waits this long. */
const FRUITLESS_RENEWAL_WAIT_MS = 7 * 24 * 60 * 60_000;

async function readAll(key: string): Promise<Uint8Array> {
  const file = await (await getFileStore()).get(key);
  const chunks: Buffer[] = [];
  for await (const chunk of file.body) chunks.push(Buffer.from(chunk as Uint8Array));
  return new Uint8Array(Buffer.concat(chunks));
}

type TNewVersion = { file: TSealedFileRow; storageKey: string; sha256: string; size: number; columns: TFileEvidenceColumns };

/**
 * One claimed upgrade or renewal (jobs.ts). Upgrade: each sealed file below B-LTA gets, by an incremental
 * update, a signature time-stamp, validation data and a document time-stamp (`upgradeEvidence`); renewal: each
 * file gets fresh validation data and a new document time-stamp (`renewEvidence`). The new versions are stored
 * under new keys, then ONE transaction fenced by the claim token makes them the files' newest versions (what
 * downloads serve), records the versions they replace in `sealed_file_versions` (so /verify still recognises an
 * earlier copy), updates the package's evidence and writes the audit entry. The replaced files are no longer
 * named by any row, so the stored-file sweep removes them; each is the first `size` bytes of its successor.
 * A failure (no TSA answered) stores nothing and schedules the next attempt: an upgrade 30 s later, doubling to
 * hourly; a renewal an hour later, doubling to daily.
 */
export async function improveClaimedEvidence(db: Db, claim: TEvidenceClaim, options: TEvidenceOptions = {}): Promise<TEvidenceOutcome> {
  const config = options.evidence === undefined ? evidenceConfig() : options.evidence;
  const store = await getFileStore();
  const stored: string[] = [];
  const discard = async () => {
    for (const key of stored) await store.delete(key).catch((err: unknown) => logger().warn({ err, key }, "could not remove an unused evidence version"));
  };
  try {
    if (!config) throw new Error("No time-stamping authority is configured (TSA_URLS)");
    const [held] = await db
      .select()
      .from(packageEvidence)
      .where(and(eq(packageEvidence.packageId, claim.id), eq(packageEvidence.claimToken, claim.token)));
    if (!held) return "superseded";
    const files = await db.select().from(sealedFiles).where(eq(sealedFiles.packageId, claim.id)).orderBy(asc(sealedFiles.kind), asc(sealedFiles.position));
    const changed: TNewVersion[] = [];
    for (const file of files) {
      if (claim.mode === "upgrade" && !isBelowLta(file.evidenceLevel)) continue;
      const bytes = await readAll(file.storageKey);
      const result = claim.mode === "upgrade" ? await upgradeEvidence(bytes, config) : await renewEvidence(bytes, config);
      const storageKey = `sealed/${claim.id}/${claim.token}/${file.kind}-${file.position}.pdf`;
      stored.push(storageKey);
      const put = await store.put(storageKey, Readable.from([result.bytes]), { size: result.bytes.byteLength, contentType: "application/pdf" });
      changed.push({ file, storageKey, sha256: put.sha256, size: put.size, columns: fileEvidenceColumns(result.evidence) });
    }
    await options.beforeStore?.();

    const at = now();
    const committed = await db.transaction(async (tx) => {
      const [row] = await tx
        .select()
        .from(packageEvidence)
        .where(and(eq(packageEvidence.packageId, claim.id), eq(packageEvidence.claimToken, claim.token)))
        .for("update");
      if (!row) return false;
      const [pkg] = await tx.select().from(packages).where(eq(packages.id, claim.id));
      for (const c of changed) {
        await tx.insert(sealedFileVersions).values({
          id: newId("sfv"),
          organisationId: c.file.organisationId,
          workspaceId: c.file.workspaceId,
          sealedFileId: c.file.id,
          packageId: c.file.packageId,
          version: c.file.version,
          sha256: c.file.sha256,
          size: c.file.size,
          evidenceLevel: c.file.evidenceLevel,
          createdAt: at,
        });
        await tx
          .update(sealedFiles)
          .set({ storageKey: c.storageKey, sha256: c.sha256, size: c.size, version: c.file.version + 1, ...c.columns })
          .where(and(eq(sealedFiles.id, c.file.id), eq(sealedFiles.version, c.file.version)));
      }
      const byId = new Map(changed.map((c) => [c.file.id, c.columns]));
      const evidence = packageEvidenceColumns(files.map((f) => byId.get(f.id) ?? f));
      const windowMs = (options.renewalDays ?? env().EVIDENCE_RENEWAL_DAYS) * 24 * 60 * 60_000;
      const stillDue = evidence.tsaCertificateNotAfter !== null && evidence.tsaCertificateNotAfter.getTime() <= at.getTime() + windowMs;
      const upgradeNextAttemptAt = isBelowLta(evidence.level) ? new Date(at.getTime() + upgradeRetryDelay(row.upgradeAttempts)) : null;
      await tx
        .update(packageEvidence)
        .set({
          ...evidence,
          upgradeNextAttemptAt,
          ...(upgradeNextAttemptAt ? {} : { upgradeAttempts: 0 }),
          ...(claim.mode === "renew" ? { renewAttempts: 0, renewNotBefore: stillDue ? new Date(at.getTime() + FRUITLESS_RENEWAL_WAIT_MS) : null } : {}),
          lastError: null,
          claimToken: null,
          claimedUntil: null,
          updatedAt: at,
        })
        .where(eq(packageEvidence.packageId, claim.id));
      await auditChange(
        tx,
        serviceActor(row.organisationId, row.workspaceId),
        pkg!,
        claim.mode === "upgrade" ? "package.evidence_upgraded" : "package.evidence_renewed",
        {
          from: row.level,
          level: evidence.level,
          files: changed.length,
          timestampedAt: evidence.timestampedAt?.toISOString() ?? null,
          timestampAuthority: evidence.timestampAuthority,
          ...(claim.mode === "renew" ? { tsaCertificateNotAfter: evidence.tsaCertificateNotAfter?.toISOString() ?? null } : {}),
        },
      );
      if (claim.mode === "renew" && stillDue) {
        logger().warn(
          { packageId: claim.id, tsaCertificateNotAfter: evidence.tsaCertificateNotAfter },
          "evidence renewed, but the TSA's certificate still expires within EVIDENCE_RENEWAL_DAYS; trying again in a week",
        );
      }
      return true;
    });
    if (!committed) {
      await discard();
      return "superseded";
    }
    logger().info(
      { packageId: claim.id, mode: claim.mode, files: changed.length },
      claim.mode === "upgrade" ? "seal evidence upgraded" : "seal evidence renewed",
    );
    return claim.mode === "upgrade" ? "upgraded" : "renewed";
  } catch (err) {
    await discard();
    return (await recordEvidenceFailure(db, claim, err)) ? "failed" : "superseded";
  }
}

/** A failed attempt, fenced by the claim token: the error kept (without credentials) and the next attempt scheduled. */
async function recordEvidenceFailure(db: Db, claim: TEvidenceClaim, err: unknown): Promise<boolean> {
  const at = now();
  const error = describeFailure(err);
  const [row] = await db
    .select()
    .from(packageEvidence)
    .where(and(eq(packageEvidence.packageId, claim.id), eq(packageEvidence.claimToken, claim.token)));
  if (!row) return false;
  const next =
    claim.mode === "upgrade"
      ? { upgradeNextAttemptAt: new Date(at.getTime() + upgradeRetryDelay(row.upgradeAttempts)) }
      : { renewNotBefore: new Date(at.getTime() + renewalRetryDelay(row.renewAttempts)) };
  const updated = await db
    .update(packageEvidence)
    .set({ ...next, lastError: error, claimToken: null, claimedUntil: null, updatedAt: at })
    .where(and(eq(packageEvidence.packageId, claim.id), eq(packageEvidence.claimToken, claim.token)))
    .returning({ id: packageEvidence.packageId });
  logger().warn(
    { packageId: claim.id, mode: claim.mode, error, ...next },
    `seal evidence ${claim.mode === "upgrade" ? "upgrade" : "renewal"} failed; retrying later`,
  );
  return updated.length === 1;
}
