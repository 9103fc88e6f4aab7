/**
 * Protects "a seal that keeps failing is never retried silently for ever" (issue 24 item 4): a package whose
 * stored original the sealer cannot process (the 335-byte PDF whose page tree contains itself, uploaded before
 * the upload check refused it) fails every attempt with "Maximum call stack size exceeded"; after
 * SEAL_MAX_ATTEMPTS attempts sealing stops (FAILED): GET says so, the audit trail records package.seal_failed,
 * the overview's alert (GET /api/app/sealing/problems) lists it to its organisation only, the metrics count it, and no further attempt runs — until someone with
 * canSendPackages presses "Retry sealing" (POST /api/app/packages/{id}/seal/retry), which makes it due again
 * with a fresh set of attempts. A document that can never be sealed as stored (a SealingError: encrypted) stops
 * at the first attempt; a worker that dies during the last attempt ends it FAILED rather than trying once more.
 */
import { Readable } from "node:stream";
import { and, eq } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { GET as getRoute } from "@/app/api/v1/packages/[packageId]/route";
import { POST as retryRoute } from "@/app/api/app/packages/[packageId]/seal/retry/route";
import { GET as problemsRoute } from "@/app/api/app/sealing/problems/route";
import { auditEvents, packages } from "@/server/db/schema";
import { eventNames } from "@/server/domain/packages/test-support/fixtures";
import { renderMetrics } from "@/server/domain/webhooks/health/render-metrics";
import { rawPdf } from "@/server/documents-io/test-support/raw-pdf";
import { setClock } from "@/server/lib/clock";
import { runDueItem } from "@/server/lib/jobs";
import { getFileStore } from "@/server/storage/get-file-store";
import { callApp } from "@/server/test/app-http";
import { useTestDb } from "@/server/test/db";
import { createTestOrg, createTestRole } from "@/server/test/factories";
import { createTestMember } from "@/server/test/actors";
import { callJson } from "@/server/test/http";
import { makeOriginal } from "@/server/test/sealing-fixtures";
import { PDF } from "@libpdf/core";
import { claimSealJob, LOST_LAST_ATTEMPT_ERROR, SEAL_LEASE_MS, SEAL_MAX_ATTEMPTS } from "./jobs";
import { sealDuePackages } from "./seal-due-packages";
import { sealRetryDelay } from "./seal-retry-delay";
import { resetSigningIdentity } from "./signing-identity";
import { signedPackage } from "@/server/test/signed-package";

const t = useTestDb();
const start = new Date("2026-03-02T09:00:00Z");
let clock = start;

beforeEach(() => {
  clock = start;
  setClock(() => clock);
  resetSigningIdentity();
});
afterEach(() => setClock(undefined));

/** The file: a /Pages node whose /Kids lists itself. @libpdf/core opens it; pdf-lib overflows its stack. */
const SELF_CONTAINING_TREE = rawPdf([
  "<< /Type /Catalog /Pages 2 0 R >>",
  "<< /Type /Pages /Kids [2 0 R 3 0 R] /Count 1 >>",
  "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >>",
]);

type TSealing = { state: string; attempts: number; lastError: string | null; nextAttemptAt: string | null; failedAt: string | null };
type TPkg = { status: string; sealing: TSealing | null };

async function putOriginal(bytes: Uint8Array) {
  await (await getFileStore()).put("files/lease", Readable.from([bytes]), { contentType: "application/pdf" });
}

async function sealing(key: string, packageId: string) {
  return (await callJson<{ data: TPkg }>(getRoute, { key, params: { packageId } })).body.data;
}

async function auditOf(packageId: string, action: string) {
  return t.db
    .select()
    .from(auditEvents)
    .where(and(eq(auditEvents.subjectId, packageId), eq(auditEvents.action, action)));
}

describe("bounded seal attempts", () => {
  it(`stops after ${SEAL_MAX_ATTEMPTS} failed attempts, visibly (GET, audit, overview, metrics), and seals after a manual retry`, async () => {
    const { org, key, pkgId } = await signedPackage(t.db);
    await putOriginal(SELF_CONTAINING_TREE);

    for (let attempt = 1; attempt <= SEAL_MAX_ATTEMPTS; attempt++) {
      expect(await sealDuePackages(t.db)).toEqual([{ packageId: pkgId, outcome: "failed" }]);
      const pkg = await sealing(key, pkgId);
      expect(pkg.status).toBe("IN_PROGRESS");
      if (attempt < SEAL_MAX_ATTEMPTS) {
        expect(pkg.sealing).toMatchObject({ state: "RETRYING", attempts: attempt, lastError: "Maximum call stack size exceeded", failedAt: null });
        expect(pkg.sealing!.nextAttemptAt).toBe(new Date(clock.getTime() + sealRetryDelay(attempt)).toISOString());
        clock = new Date(pkg.sealing!.nextAttemptAt!);
      }
    }
    const failedAt = clock;
    expect((await sealing(key, pkgId)).sealing).toEqual({
      state: "FAILED",
      requestedAt: start.toISOString(),
      attempts: SEAL_MAX_ATTEMPTS,
      lastError: "Maximum call stack size exceeded",
      nextAttemptAt: null,
      failedAt: failedAt.toISOString(),
    });
    // The schedule was 1, 2, 4 … minutes, at most an hour: stopped about two hours after the last signature.
    expect(failedAt.getTime() - start.getTime()).toBe([1, 2, 3, 4, 5, 6, 7].reduce((sum, n) => sum + sealRetryDelay(n), 0));
    const [failed] = await auditOf(pkgId, "package.seal_failed");
    expect(failed!.data).toEqual({
      by: "the service",
      attempts: SEAL_MAX_ATTEMPTS,
      error: "Maximum call stack size exceeded",
      why: `${SEAL_MAX_ATTEMPTS} attempts made`,
    });

    // Never again on its own, however long we wait.
    clock = new Date(start.getTime() + 365 * 86_400_000);
    expect(await sealDuePackages(t.db)).toEqual([]);

    // The overview's alert and the operator's metric.
    const as = { userId: org.userId, organisationId: org.organisationId };
    expect(await callApp(problemsRoute, { as })).toEqual({
      status: 200,
      body: {
        data: {
          total: 1,
          failed: 1,
          items: [
            {
              id: pkgId,
              title: "Lease 4B",
              state: "FAILED",
              attempts: SEAL_MAX_ATTEMPTS,
              lastError: "Maximum call stack size exceeded",
              failedAt: failedAt.toISOString(),
              nextAttemptAt: null,
            },
          ],
        },
      },
    });
    const other = await createTestOrg(t.db, "Other");
    expect(await callApp(problemsRoute, { as: { userId: other.userId, organisationId: other.organisationId } })).toEqual({
      status: 200,
      body: { data: { total: 0, failed: 0, items: [] } },
    });
    const metrics = await renderMetrics(t.db, clock);
    expect(metrics).toContain('foliosign_sealing_packages{state="FAILED"} 1');
    expect(metrics).toContain('foliosign_sealing_packages{state="RETRYING"} 0');

    // The cause is fixed (a sound original); "Retry sealing" makes it due now with a fresh set of attempts.
    await putOriginal(await makeOriginal(1));
    const retried = await callApp<{ data: TPkg }>(retryRoute, { as, params: { packageId: pkgId } });
    expect(retried.status).toBe(200);
    expect(retried.body.data.sealing).toEqual({
      state: "PENDING",
      requestedAt: start.toISOString(),
      attempts: 0,
      lastError: "Maximum call stack size exceeded",
      nextAttemptAt: clock.toISOString(),
      failedAt: null,
    });
    const [retriedAudit] = await auditOf(pkgId, "package.seal_retried");
    expect(retriedAudit).toMatchObject({
      actorUserId: org.userId,
      data: { previousAttempts: SEAL_MAX_ATTEMPTS, lastError: "Maximum call stack size exceeded" },
    });
    expect((await callApp(problemsRoute, { as })).body).toEqual({ data: { total: 0, failed: 0, items: [] } });

    expect(await sealDuePackages(t.db)).toEqual([{ packageId: pkgId, outcome: "sealed" }]);
    expect(await sealing(key, pkgId)).toMatchObject({ status: "COMPLETED", sealing: null });
    expect((await eventNames(t.db, pkgId)).filter((n) => n === "PACKAGE_COMPLETED")).toHaveLength(1);

    // Nothing left to retry: 409, and nothing changes.
    const again = await callApp<{ error: string }>(retryRoute, { as, params: { packageId: pkgId } });
    expect(again).toEqual({ status: 409, body: { error: "Sealing of this package has not stopped: there is nothing to retry" } });
  });

  it("stops at the first attempt when the stored document can never be sealed (an encrypted original)", async () => {
    const { key, pkgId } = await signedPackage(t.db);
    const encrypted = PDF.create();
    encrypted.addPage({ size: "a4" });
    encrypted.setProtection({ userPassword: "open-me", ownerPassword: "owner" });
    await putOriginal(await encrypted.save());
    expect(await sealDuePackages(t.db)).toEqual([{ packageId: pkgId, outcome: "failed" }]);
    expect((await sealing(key, pkgId)).sealing).toMatchObject({
      state: "FAILED",
      attempts: 1,
      lastError: "Encrypted PDFs cannot be sealed",
      nextAttemptAt: null,
      failedAt: start.toISOString(),
    });
    const [failed] = await auditOf(pkgId, "package.seal_failed");
    expect(failed!.data).toMatchObject({ attempts: 1, why: "the document cannot be sealed as stored" });
  });

  it("ends FAILED instead of trying again when the worker of the last attempt died", async () => {
    const { key, pkgId } = await signedPackage(t.db);
    await t.db
      .update(packages)
      .set({ sealAttempts: SEAL_MAX_ATTEMPTS - 1 })
      .where(eq(packages.id, pkgId));
    // The last attempt is claimed; its worker dies (nothing more happens to it).
    const last = await runDueItem(t.db, claimSealJob, { at: start, skip: [] });
    expect(last?.item).toMatchObject({ id: pkgId, lost: false });
    expect((await sealing(key, pkgId)).sealing).toMatchObject({ state: "PENDING", attempts: SEAL_MAX_ATTEMPTS });

    clock = new Date(start.getTime() + SEAL_LEASE_MS);
    expect(await sealDuePackages(t.db)).toEqual([{ packageId: pkgId, outcome: "failed" }]);
    expect((await sealing(key, pkgId)).sealing).toMatchObject({
      state: "FAILED",
      attempts: SEAL_MAX_ATTEMPTS,
      lastError: LOST_LAST_ATTEMPT_ERROR,
      failedAt: clock.toISOString(),
    });
    const [row] = await t.db.select().from(packages).where(eq(packages.id, pkgId));
    expect(row).toMatchObject({ sealClaimToken: null, sealNextAttemptAt: null });
    expect(await sealDuePackages(t.db)).toEqual([]);
  });

  it("lets only members who can send packages retry, answers 409 while sealing has not stopped, and 404 to another organisation", async () => {
    const { org, pkgId } = await signedPackage(t.db);
    const as = { userId: org.userId, organisationId: org.organisationId };
    expect(await callApp(retryRoute, { as, params: { packageId: pkgId } })).toEqual({
      status: 409,
      body: { error: "Sealing of this package has not stopped: there is nothing to retry" },
    });
    await t.db
      .update(packages)
      .set({ sealFailedAt: start, sealNextAttemptAt: null, sealLastError: "x", sealAttempts: SEAL_MAX_ATTEMPTS })
      .where(eq(packages.id, pkgId));

    const viewerRole = await createTestRole(t.db, org.organisationId, { canSendPackages: false, canViewAllPackages: true });
    const viewer = await createTestMember(t.db, org, viewerRole);
    const refused = await callApp<{ error: string }>(retryRoute, {
      as: { userId: viewer.user.id, organisationId: org.organisationId },
      params: { packageId: pkgId },
    });
    expect(refused.status).toBe(403);

    const other = await createTestOrg(t.db, "Other");
    expect((await callApp(retryRoute, { as: { userId: other.userId, organisationId: other.organisationId }, params: { packageId: pkgId } })).status).toBe(404);

    const [row] = await t.db.select().from(packages).where(eq(packages.id, pkgId));
    expect(row).toMatchObject({ sealFailedAt: start, sealAttempts: SEAL_MAX_ATTEMPTS });
    expect(await auditOf(pkgId, "package.seal_retried")).toEqual([]);
  });
});
