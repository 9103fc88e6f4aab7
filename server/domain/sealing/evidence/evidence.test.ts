/**
 * Protects "evidence that lasts" (issue 20) end to end, on a real database, the real engine and 20a's loopback
 * TSA and CA (server/pdf/test-support/loopback-pki.ts), with an injected clock:
 * - a TSA answering: every sealed file is B-LTA; GET /packages/{id} answers `evidence`; /verify answers the level
 *   and each time-stamp's time and TSA;
 * - no TSA configured: B-B, nothing pending, /verify says "no trusted time" (no time-stamps);
 * - the TSA stopped mid-run: the package completes on time at B-B, with `package.evidence_degraded` naming what
 *   failed (no credentials); the upgrade job retries on its schedule (15 s, then 30 s, 1 min, …) and, once the
 *   TSA is back, reaches B-LTA by incremental update: the pre-upgrade download is a prefix of the new one and
 *   /verify still recognises it as an earlier version; downloads serve the newest;
 * - renewal: not before EVIDENCE_RENEWAL_DAYS ahead of the TSA certificate's expiry, then a new version, and a
 *   failed renewal waits an hour.
 */
import { and, asc, eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { GET as getRoute } from "@/app/api/v1/packages/[packageId]/route";
import { GET as downloadRoute } from "@/app/api/v1/packages/[packageId]/download/route";
import { POST as verifyRoute } from "@/app/api/app/verify/route";
import { auditEvents, packageEvidence, packages, sealedFiles, sealedFileVersions } from "@/server/db/schema";
import { verifyAuditChain } from "@/server/domain/audit/verify-audit-chain";
import { resetEnvCache } from "@/server/env";
import { setClock } from "@/server/lib/clock";
import type { TEvidenceConfig } from "@/server/pdf/evidence";
import { startLoopbackPki, type TLoopbackPki } from "@/server/pdf/test-support/loopback-pki";
import { useTestDb } from "@/server/test/db";
import { callJson, callRoute } from "@/server/test/http";
import { signedPackage as signedPackageIn } from "@/server/test/signed-package";
import { sealDuePackages } from "../seal-due-packages";
import { resetSigningIdentity } from "../signing-identity";
import type { TVerification } from "../schemas";
import { improveDueEvidence } from "./improve-due-evidence";
import { improveClaimedEvidence } from "./improve-claimed-evidence";
import { runDueItem } from "@/server/lib/jobs";
import { claimEvidenceUpgradeJob } from "./jobs";
import { getFileStore } from "@/server/storage/get-file-store";
import { renewalRetryDelay, upgradeRetryDelay } from "./jobs";

const t = useTestDb();
const start = new Date("2026-03-02T09:00:00Z");
let clock = start;
let pki: TLoopbackPki;
const DAY = 24 * 60 * 60_000;

beforeAll(async () => {
  pki = await startLoopbackPki();
}, 60_000);
afterAll(async () => pki?.close());
beforeEach(async () => {
  clock = start;
  setClock(() => clock);
  resetSigningIdentity();
  pki.setTsaMode("ok");
  await pki.startTsa().catch(() => undefined);
});
afterEach(() => setClock(undefined));

const config = (over: Partial<TEvidenceConfig> = {}): TEvidenceConfig => ({ tsaUrls: [pki.tsaUrl], tsaTimeoutMs: 3000, now: () => clock, ...over });
const at = (ms: number) => new Date(start.getTime() + ms);

type TEvidenceView = { level: string; timestampedAt: string | null; timestampAuthority: string | null; upgradePending: boolean };

async function getEvidence(key: string, packageId: string) {
  const res = await callJson<{ data: { status: string; completedAt: string | null; evidence: TEvidenceView | null } }>(getRoute, {
    key,
    params: { packageId },
  });
  expect(res.status).toBe(200);
  return res.body.data;
}

async function download(key: string, packageId: string): Promise<Uint8Array> {
  const res = await callRoute(downloadRoute, { key, params: { packageId } });
  expect(res.status).toBe(200);
  return new Uint8Array(await res.arrayBuffer());
}

async function verify(bytes: Uint8Array): Promise<TVerification> {
  const req = new Request("http://localhost:3000/api/app/verify", {
    method: "POST",
    headers: { "content-type": "application/pdf", "sec-fetch-site": "same-origin" },
    body: Buffer.from(bytes),
  });
  const res = await verifyRoute(req, { params: Promise.resolve({}) });
  expect(res.status).toBe(200);
  return ((await res.json()) as { data: TVerification }).data;
}

const evidenceRow = async (packageId: string) => (await t.db.select().from(packageEvidence).where(eq(packageEvidence.packageId, packageId)))[0]!;
const auditOf = (packageId: string, action: string) =>
  t.db
    .select()
    .from(auditEvents)
    .where(and(eq(auditEvents.subjectId, packageId), eq(auditEvents.action, action)));

describe("retry schedules", () => {
  it("upgrade: first retry within 30 s of the seal, then 30 s, 1 min, 2 min … at most hourly; renewal: hourly, doubling to daily", () => {
    expect([1, 2, 3, 4, 5, 6, 7, 8, 9, 20].map(upgradeRetryDelay)).toEqual([30, 60, 120, 240, 480, 960, 1920, 3600, 3600, 3600].map((s) => s * 1000));
    expect([1, 2, 3, 5, 6, 40].map(renewalRetryDelay)).toEqual([1, 2, 4, 16, 24, 24].map((h) => h * 3600_000));
  });
});

describe("time-stamped seals", () => {
  it("with a TSA answering: every file B-LTA, the API and /verify say so; no upgrade pending", async () => {
    const { key, pkgId } = await signedPackageIn(t.db);
    clock = at(5_000);
    expect(await sealDuePackages(t.db, { seal: { evidence: config() } })).toEqual([{ packageId: pkgId, outcome: "sealed" }]);

    const files = await t.db.select().from(sealedFiles).where(eq(sealedFiles.packageId, pkgId));
    expect(files.map((f) => f.evidenceLevel)).toEqual(files.map(() => "B-LTA"));
    expect(files.every((f) => f.version === 1 && f.timestampedAt !== null && f.tsaCertificateNotAfter !== null)).toBe(true);

    const pkg = await getEvidence(key, pkgId);
    expect(pkg.status).toBe("COMPLETED");
    expect(pkg.evidence).toEqual({
      level: "B-LTA",
      timestampedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) as unknown as string,
      timestampAuthority: expect.stringContaining("Foliosign Loopback TSA") as unknown as string,
      upgradePending: false,
    });
    expect(await auditOf(pkgId, "package.evidence_degraded")).toHaveLength(0);

    const result = await verify(await download(key, pkgId));
    expect(result).toMatchObject({ sealedHere: true, unaltered: true, newerVersion: false, evidence: { level: "B-LTA", trustedTime: true } });
    expect(result.evidence!.timestamps.length).toBeGreaterThanOrEqual(2);
    for (const stamp of result.evidence!.timestamps) {
      expect(stamp).toMatchObject({ valid: true, authority: expect.stringContaining("Foliosign Loopback TSA") as unknown as string });
      expect(Number.isNaN(Date.parse(stamp.time))).toBe(false);
    }
    expect(result.evidence!.timestamps.map((s) => s.kind)).toContain("document");
  }, 120_000);

  it("with no TSA configured: B-B, nothing pending, no audit entry, and /verify finds no trusted time", async () => {
    const { key, pkgId } = await signedPackageIn(t.db);
    expect(await sealDuePackages(t.db, { seal: { evidence: null } })).toEqual([{ packageId: pkgId, outcome: "sealed" }]);
    expect((await getEvidence(key, pkgId)).evidence).toEqual({ level: "B-B", timestampedAt: null, timestampAuthority: null, upgradePending: false });
    expect(await auditOf(pkgId, "package.evidence_degraded")).toHaveLength(0);
    expect(await improveDueEvidence(t.db, { options: { evidence: config() } })).toEqual([]);
    expect(await improveDueEvidence(t.db, { options: { evidence: null } })).toEqual([]);
    const result = await verify(await download(key, pkgId));
    expect(result).toMatchObject({ unaltered: true, evidence: { level: "B-B", trustedTime: false, timestamps: [] } });
  }, 120_000);

  it("the TSA stopped mid-run: completes on time at B-B with an audit entry; retried on schedule; once back, B-LTA and the old copy still verifies as an earlier version", async () => {
    const { key, pkgId } = await signedPackageIn(t.db);
    const requested = (await t.db.select().from(packages).where(eq(packages.id, pkgId)))[0]!.sealRequestedAt!;
    // The TSA answers the first two requests of the seal, then stops for good (connections refused).
    let calls = 0;
    const stopping: typeof fetch = async (input, init) => {
      if (String(input instanceof Request ? input.url : input).endsWith("/tsa") && ++calls > 2) await pki.stopTsa().catch(() => undefined);
      return fetch(input, init);
    };
    const secretUrl = pki.tsaUrl.replace("http://", "http://seal-user:s3cret-word@");
    clock = at(5_000);
    expect(await sealDuePackages(t.db, { seal: { evidence: config({ tsaUrls: [secretUrl], fetch: stopping }) } })).toEqual([
      { packageId: pkgId, outcome: "sealed" },
    ]);

    const sealed = await getEvidence(key, pkgId);
    expect(sealed.status).toBe("COMPLETED");
    expect(sealed.completedAt).toBe(requested.toISOString());
    expect(sealed.evidence).toMatchObject({ level: "B-B", timestampedAt: null, upgradePending: true });
    const [degraded] = await auditOf(pkgId, "package.evidence_degraded");
    expect(degraded?.data).toMatchObject({ level: "B-B", failure: expect.any(String) as unknown as string });
    expect(JSON.stringify(degraded?.data)).not.toContain("s3cret-word");
    expect(pki.seen.authorization.some((h) => h.startsWith("Basic "))).toBe(true);
    expect((await evidenceRow(pkgId)).upgradeNextAttemptAt).toEqual(at(5_000 + 15_000));

    const before = await download(key, pkgId);

    // Still down: each attempt fails and the next waits 30 s, then 60 s, then 120 s.
    const cfg = config();
    expect(await improveDueEvidence(t.db, { options: { evidence: cfg } })).toEqual([]);
    let due = at(20_000);
    for (const wait of [30_000, 60_000, 120_000]) {
      clock = due;
      expect(await improveDueEvidence(t.db, { options: { evidence: cfg } })).toEqual([{ packageId: pkgId, mode: "upgrade", outcome: "failed" }]);
      const row = await evidenceRow(pkgId);
      expect(row.upgradeNextAttemptAt).toEqual(new Date(due.getTime() + wait));
      expect(row.lastError).toBeTruthy();
      expect(row.claimToken).toBeNull();
      clock = new Date(due.getTime() + wait - 1);
      expect(await improveDueEvidence(t.db, { options: { evidence: cfg } })).toEqual([]);
      due = new Date(due.getTime() + wait);
    }
    expect((await getEvidence(key, pkgId)).evidence?.upgradePending).toBe(true);

    // Back: the next attempt upgrades every file below B-LTA.
    await pki.startTsa();
    clock = due;
    expect(await improveDueEvidence(t.db, { options: { evidence: cfg } })).toEqual([{ packageId: pkgId, mode: "upgrade", outcome: "upgraded" }]);
    const upgraded = await getEvidence(key, pkgId);
    expect(upgraded.evidence).toMatchObject({
      level: "B-LTA",
      upgradePending: false,
      timestampAuthority: expect.stringContaining("Loopback TSA") as unknown as string,
    });
    expect((await evidenceRow(pkgId)).lastError).toBeNull();
    const [done] = await auditOf(pkgId, "package.evidence_upgraded");
    expect(done?.data).toMatchObject({ from: "B-B", level: "B-LTA" });
    expect(await verifyAuditChain(t.db, "package", pkgId)).toMatchObject({ ok: true });

    const files = await t.db.select().from(sealedFiles).where(eq(sealedFiles.packageId, pkgId));
    expect(files.every((f) => f.evidenceLevel === "B-LTA")).toBe(true);
    const versions = await t.db.select().from(sealedFileVersions).where(eq(sealedFileVersions.packageId, pkgId)).orderBy(asc(sealedFileVersions.version));
    const upgradedFiles = files.filter((f) => f.version === 2);
    expect(versions).toHaveLength(upgradedFiles.length);
    expect(upgradedFiles.length).toBeGreaterThanOrEqual(1);

    // Downloads serve the newest version, which extends the old one byte for byte (incremental update).
    const after = await download(key, pkgId);
    expect(after.length).toBeGreaterThan(before.length);
    expect(Buffer.from(after.subarray(0, before.length)).equals(Buffer.from(before))).toBe(true);

    const old = await verify(before);
    expect(old).toMatchObject({ sealedHere: true, unaltered: true, newerVersion: true, evidence: { level: "B-B", trustedTime: false } });
    expect(old.message).toContain("A newer version of it exists");
    const fresh = await verify(after);
    expect(fresh).toMatchObject({ unaltered: true, newerVersion: false, evidence: { level: "B-LTA", trustedTime: true } });

    // Nothing more to do.
    clock = new Date(due.getTime() + 3_600_000);
    expect(await improveDueEvidence(t.db, { options: { evidence: cfg } })).toEqual([]);
  }, 180_000);

  it("renewal: due EVIDENCE_RENEWAL_DAYS before the TSA certificate expires (injected clock), adds a version; a failed one waits an hour", async () => {
    const { key, pkgId } = await signedPackageIn(t.db);
    clock = at(5_000);
    await sealDuePackages(t.db, { seal: { evidence: config() } });
    const sealed = await evidenceRow(pkgId);
    expect(sealed.level).toBe("B-LTA");
    const expiry = sealed.tsaCertificateNotAfter!;
    const options = { evidence: config(), renewalDays: 180 };

    clock = new Date(expiry.getTime() - 181 * DAY);
    expect(await improveDueEvidence(t.db, { options })).toEqual([]);

    clock = new Date(expiry.getTime() - 179 * DAY);
    const before = await download(key, pkgId);
    expect(await improveDueEvidence(t.db, { options })).toEqual([{ packageId: pkgId, mode: "renew", outcome: "renewed" }]);
    const files = await t.db.select().from(sealedFiles).where(eq(sealedFiles.packageId, pkgId));
    expect(files.map((f) => f.version)).toEqual(files.map(() => 2));
    expect(await auditOf(pkgId, "package.evidence_renewed")).toHaveLength(1);
    const after = await download(key, pkgId);
    expect(Buffer.from(after.subarray(0, before.length)).equals(Buffer.from(before))).toBe(true);
    expect((await verify(before)).newerVersion).toBe(true);
    const renewed = await verify(after);
    expect(renewed.evidence!.timestamps.filter((s) => s.kind === "document").length).toBeGreaterThan(
      (await verify(before)).evidence!.timestamps.filter((s) => s.kind === "document").length,
    );

    // The loopback TSA has one certificate: the new time-stamp expires just the same, so renewal waits a week.
    const row = await evidenceRow(pkgId);
    expect(row.renewNotBefore).toEqual(new Date(clock.getTime() + 7 * DAY));
    clock = new Date(clock.getTime() + 7 * DAY - 1);
    expect(await improveDueEvidence(t.db, { options })).toEqual([]);

    // The TSA down at the next renewal: it fails, stores nothing, and waits an hour.
    await pki.stopTsa();
    clock = new Date(clock.getTime() + 1);
    expect(await improveDueEvidence(t.db, { options })).toEqual([{ packageId: pkgId, mode: "renew", outcome: "failed" }]);
    expect((await evidenceRow(pkgId)).renewNotBefore).toEqual(new Date(clock.getTime() + 3_600_000));
    const unchanged = await t.db.select().from(sealedFiles).where(eq(sealedFiles.packageId, pkgId));
    expect(unchanged.map((f) => f.version)).toEqual(files.map(() => 2));
  }, 180_000);

  it("a hostile TSA (garbage bytes) counts as down: the package completes at B-B with the reason in the audit trail", async () => {
    const { key, pkgId } = await signedPackageIn(t.db);
    pki.setTsaMode("garbage");
    expect(await sealDuePackages(t.db, { seal: { evidence: config() } })).toEqual([{ packageId: pkgId, outcome: "sealed" }]);
    expect((await getEvidence(key, pkgId)).evidence).toMatchObject({ level: "B-B", upgradePending: true });
    const [degraded] = await auditOf(pkgId, "package.evidence_degraded");
    expect(String(degraded?.data.failure)).toContain(pki.tsaUrl);
  }, 120_000);

  it("an upgrade whose claim was taken over stores and commits nothing", async () => {
    const { key, pkgId } = await signedPackageIn(t.db);
    await pki.stopTsa();
    await sealDuePackages(t.db, { seal: { evidence: config() } });
    await pki.startTsa();
    clock = at(60_000);
    const claimed = await runDueItem(t.db, claimEvidenceUpgradeJob, { at: clock, skip: [] });
    expect(claimed?.item.id).toBe(pkgId);
    const before = await t.db.select().from(sealedFiles).where(eq(sealedFiles.packageId, pkgId));
    const outcome = await improveClaimedEvidence(t.db, claimed!.item, {
      evidence: config(),
      // Another worker took the package over while this one was time-stamping.
      beforeStore: async () => {
        await t.db.update(packageEvidence).set({ claimToken: "evc_other" }).where(eq(packageEvidence.packageId, pkgId));
      },
    });
    expect(outcome).toBe("superseded");
    const after = await t.db.select().from(sealedFiles).where(eq(sealedFiles.packageId, pkgId));
    expect(after).toEqual(before);
    expect(await t.db.select().from(sealedFileVersions).where(eq(sealedFileVersions.packageId, pkgId))).toEqual([]);
    expect((await getEvidence(key, pkgId)).evidence?.level).toBe("B-B");
    // The versions it had stored under its own claim were removed again.
    const store = await getFileStore();
    const leftovers = await store.list(`sealed/${pkgId}/${claimed!.item.token}/`, new Date(Date.now() + DAY));
    expect(leftovers.files).toEqual([]);
  }, 120_000);

  it("reads TSA_URLS and TSA_TIMEOUT_MS from the configuration when no test config is given", async () => {
    const { key, pkgId } = await signedPackageIn(t.db);
    process.env.TSA_URLS = `http://127.0.0.1:1/unreachable, ${pki.tsaUrl}`;
    process.env.TSA_TIMEOUT_MS = "3000";
    resetEnvCache();
    try {
      expect(await sealDuePackages(t.db)).toEqual([{ packageId: pkgId, outcome: "sealed" }]);
    } finally {
      delete process.env.TSA_URLS;
      delete process.env.TSA_TIMEOUT_MS;
      resetEnvCache();
    }
    // The first URL refuses connections; the second, tried next, answers.
    expect((await getEvidence(key, pkgId)).evidence).toMatchObject({ level: "B-LTA", upgradePending: false });
  }, 120_000);

  it.runIf(Boolean(process.env.DATABASE_URL))(
    "on PostgreSQL, two workers claiming a due upgrade at once take it once",
    async () => {
      const { pkgId } = await signedPackageIn(t.db);
      await pki.stopTsa();
      await sealDuePackages(t.db, { seal: { evidence: config() } });
      clock = at(60_000);
      const claims = await Promise.all([0, 1].map(() => runDueItem(t.db, claimEvidenceUpgradeJob, { at: clock, skip: [] })));
      expect(claims.filter(Boolean).map((c) => c!.item.id)).toEqual([pkgId]);
    },
    120_000,
  );
});
