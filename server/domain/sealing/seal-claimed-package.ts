import { Readable } from "node:stream";
import { and, asc, eq, isNull } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { packages, recipientSessions, sealedFiles, workspaces, type TSealedFileKind } from "@/server/db/schema";
import { queuePackageMail } from "@/server/domain/mail/queue-package-mail";
import { auditChange } from "@/server/domain/audit/audit-change";
import type { TPackageRow } from "@/server/domain/packages/find-package";
import { forgetSigningTokens } from "@/server/domain/packages/forget-signing-tokens";
import { loadMailPackage } from "@/server/domain/packages/load-mail-package";
import { mailSigningToken } from "@/server/domain/packages/mail-signing-token";
import { serviceActor } from "@/server/domain/packages/package-actor";
import { recordPackageEvent } from "@/server/domain/packages/record-package-event";
import { withEvents } from "@/server/domain/transaction";
import { env } from "@/server/env";
import { now } from "@/server/lib/clock";
import { newId } from "@/server/lib/ids";
import { logger } from "@/server/lib/logger";
import { sealPackage } from "@/server/pdf/seal-package";
import { getFileStore } from "@/server/storage/get-file-store";
import { SealingError } from "@/server/pdf/sealing-error";
import type { TEvidenceConfig, TFileEvidence } from "@/server/pdf/evidence";
import { SEAL_HEARTBEAT_MS, SEAL_MAX_ATTEMPTS, type TSealClaim } from "./jobs";
import { evidenceConfig } from "./evidence/evidence-config";
import { fileEvidenceColumns, type TFileEvidenceColumns } from "./evidence/file-evidence";
import { recordSealEvidence } from "./evidence/record-seal-evidence";
import { failSeal } from "./fail-seal";
import { loadSealInput } from "./load-seal-input";
import { sealRetryDelay } from "./seal-retry-delay";
import { startSealHeartbeat } from "./seal-lease";
import { getSigningIdentity, getTestSigningIdentity } from "./signing-identity";

export type TSealOutcome = "sealed" | "failed" | "superseded";

type TSealedRow = typeof sealedFiles.$inferInsert;

const MAX_ERROR_LENGTH = 500;

function describe(err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  return message.length > MAX_ERROR_LENGTH ? `${message.slice(0, MAX_ERROR_LENGTH - 1)}…` : message;
}

export type TSealOptions = {
  /** How often the lease is renewed while sealing (default SEAL_HEARTBEAT_MS); tests shorten it. */
  heartbeatMs?: number;
  /** Test hook: runs once the sealed files are built, before the lease is checked and anything is stored. */
  beforeStore?: () => Promise<void>;
  /** The time-stamping configuration; default `evidenceConfig()` (TSA_URLS; null: B-B seals). Tests pass a loopback TSA's. */
  evidence?: TEvidenceConfig | null;
};

/**
 * Seals one claimed package (see jobs.ts): reads the originals and stored values, builds every sealed file
 * with the engine, stores them, then — in ONE transaction fenced by the claim token — inserts the
 * `sealed_files` rows, sets COMPLETED and `completedAt`, records PACKAGE_COMPLETED and the audit event, and queues
 * the completed mail (so it goes out only once the files it links to exist, and never if the seal is lost).
 * The heavy work runs outside any transaction while a heartbeat renews the lease (seal-lease.ts); before
 * storing, the lease is renewed once more, fenced, so a worker whose claim was taken over stores nothing.
 * A failure (or a lost fence) removes the files it stored; a failure also stores the error and the next
 * attempt's time, or ends sealing (FAILED) when the attempts are used up or the document can never be sealed.
 */
export async function sealClaimedPackage(db: Db, claim: TSealClaim, options: TSealOptions = {}): Promise<TSealOutcome> {
  const stored: string[] = [];
  const store = await getFileStore();
  const discard = async () => {
    for (const key of stored) await store.delete(key).catch((err: unknown) => logger().warn({ err, key }, "could not remove an unused sealed file"));
  };
  const lease = startSealHeartbeat(db, claim, options.heartbeatMs ?? SEAL_HEARTBEAT_MS);
  try {
    const [pkg] = await db
      .select()
      .from(packages)
      .where(and(eq(packages.id, claim.id), eq(packages.sealClaimToken, claim.token), eq(packages.status, "IN_PROGRESS"), isNull(packages.deletedAt)));
    if (!pkg) return "superseded";
    const input = await loadSealInput(db, pkg);
    // A test workspace's package: the TEST mark on every page, the test identity, and no time-stamping authority
    // (a test seal asks nothing of the network; docs/decisions/test-mode.md).
    const [workspace] = await db.select({ isTest: workspaces.isTest }).from(workspaces).where(eq(workspaces.id, pkg.workspaceId));
    const test = workspace?.isTest ?? false;
    const evidence = test ? null : options.evidence === undefined ? evidenceConfig() : options.evidence;
    const identity = test ? await getTestSigningIdentity(db) : await getSigningIdentity(db);
    // Degrade, never fail: with no TSA answering the engine still seals (at B-B) and says why in `evidence.failure`.
    const result = await sealPackage({ ...input, identity }, { signal: lease.signal, testMark: test, ...(evidence ? { evidence } : {}) });
    await options.beforeStore?.();
    // Fenced: a worker whose lease ran out and was claimed by another stops here, before storing anything.
    if (!(await lease.renew())) return "superseded";

    const rows: TSealedRow[] = [];
    const evidences: TFileEvidenceColumns[] = [];
    const failures: string[] = [];
    const keep = async (
      kind: TSealedFileKind,
      name: string,
      position: number,
      file: { bytes: Uint8Array; sha256: string; pages: number; evidence?: TFileEvidence },
      documentId: string | null,
    ) => {
      lease.signal.throwIfAborted();
      const key = `sealed/${pkg.id}/${claim.token}/${kind}-${position}.pdf`;
      stored.push(key);
      const put = await store.put(key, Readable.from([file.bytes]), { size: file.bytes.byteLength, contentType: "application/pdf" });
      const columns = fileEvidenceColumns(file.evidence);
      evidences.push(columns);
      if (file.evidence?.failure) failures.push(file.evidence.failure);
      rows.push({
        id: newId("sfl"),
        organisationId: pkg.organisationId,
        workspaceId: pkg.workspaceId,
        packageId: pkg.id,
        kind,
        documentId,
        name,
        position,
        storageKey: key,
        sha256: put.sha256,
        size: put.size,
        pages: file.pages,
        ...columns,
      });
    };
    for (const [i, doc] of result.documents.entries()) await keep("document", doc.name, i, doc, doc.id);
    await keep("merged", pkg.title, 0, result.merged, null);
    await keep("certificate", `${pkg.title} – certificate`, 0, result.certificate, null);

    const committed = await withEvents(db, async (tx) => {
      const [due] = await tx
        .select()
        .from(packages)
        .where(and(eq(packages.id, claim.id), eq(packages.sealClaimToken, claim.token), eq(packages.status, "IN_PROGRESS"), isNull(packages.deletedAt)))
        .for("update");
      if (!due) return false;
      const at = now();
      const completedAt = due.sealRequestedAt ?? at;
      await tx.insert(sealedFiles).values(rows);
      const [done] = await tx
        .update(packages)
        .set({ status: "COMPLETED", completedAt, sealClaimToken: null, sealNextAttemptAt: null, sealLastError: null, updatedAt: at })
        .where(eq(packages.id, due.id))
        .returning();
      await recordPackageEvent(tx, done!, "PACKAGE_COMPLETED", { completedAt: completedAt.toISOString() });
      await queueCompletedMail(tx, done!, at);
      await auditChange(tx, serviceActor(due.organisationId, due.workspaceId), due, "package.completed", {
        sealedFiles: rows.length,
        attempts: due.sealAttempts,
      });
      await recordSealEvidence(tx, done!, { at, files: evidences, tsaConfigured: evidence !== null, failures });
      return true;
    });
    if (!committed) {
      await discard();
      return "superseded";
    }
    logger().info({ packageId: pkg.id, attempts: pkg.sealAttempts }, "package sealed and completed");
    return "sealed";
  } catch (err) {
    await discard();
    // Another worker holds the package now: its attempt, not ours, decides what happens.
    if (lease.signal.aborted) return "superseded";
    await recordSealFailure(db, claim, err);
    return "failed";
  } finally {
    lease.stop();
  }
}

/**
 * The completed copy: to every recipient a link to their signing page, which now offers the signed PDF for
 * download through their own token (GET /api/app/sign/{token}/download), and to the owner the package page.
 * Then the encrypted token copies are dropped: nothing will mail these links again.
 */
async function queueCompletedMail(tx: Db, pkg: TPackageRow, at: Date): Promise<void> {
  const base = env().publicUrl;
  const sessions = await tx.select().from(recipientSessions).where(eq(recipientSessions.packageId, pkg.id)).orderBy(asc(recipientSessions.position));
  const recipients = [];
  for (const s of sessions) {
    const downloadUrl = s.email ? `${base}/sign/${encodeURIComponent(await mailSigningToken(tx, s, at, "completed"))}` : null;
    recipients.push({ sessionId: s.id, email: s.email, name: s.name, downloadUrl });
  }
  await queuePackageMail(tx, { kind: "COMPLETED", pkg: await loadMailPackage(tx, pkg), recipients });
  await forgetSigningTokens(tx, pkg.id);
}

/**
 * A failed attempt, fenced by the claim token: retried after `sealRetryDelay`, or — once SEAL_MAX_ATTEMPTS
 * attempts are used up, or at once for a SealingError (the document itself cannot be sealed: retrying would
 * only fail the same way) — sealing stops (`failSeal`).
 */
async function recordSealFailure(db: Db, claim: TSealClaim, err: unknown): Promise<void> {
  const at = now();
  const error = describe(err);
  await db.transaction(async (tx) => {
    const [pkg] = await tx
      .select()
      .from(packages)
      .where(and(eq(packages.id, claim.id), eq(packages.sealClaimToken, claim.token)))
      .for("update");
    if (!pkg) return;
    const attempts = pkg.sealAttempts;
    if (err instanceof SealingError || attempts >= SEAL_MAX_ATTEMPTS) {
      const why = err instanceof SealingError ? "the document cannot be sealed as stored" : `${SEAL_MAX_ATTEMPTS} attempts made`;
      await failSeal(tx, pkg, { at, error, attempts, why });
      return;
    }
    const nextAttemptAt = new Date(at.getTime() + sealRetryDelay(attempts));
    await tx.update(packages).set({ sealLastError: error, sealNextAttemptAt: nextAttemptAt, sealClaimToken: null }).where(eq(packages.id, pkg.id));
    logger().error({ err, packageId: claim.id, attempts, nextAttemptAt }, "sealing failed; the package stays IN_PROGRESS and is retried");
  });
}
