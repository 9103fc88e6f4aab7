/**
 * Protects "sealing as a durable job" end to end on a real database and the real engine: the last recipient's
 * completion only makes sealing due (IN_PROGRESS, no PACKAGE_COMPLETED, downloads 409); the job seals from the
 * stored original and stored values, and COMPLETED + PACKAGE_COMPLETED + the sealed files land together; the
 * files pass poppler's pdfsig and qpdf --check with the right page counts and the recipients' names; one
 * changed byte breaks the signature and /verify says altered; a failing seal is retried on its schedule, shown
 * on GET, and never completes the package; the zip holds every document and the certificate; 413 past the
 * merged limit; another workspace gets 404 on every download route.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { and, eq } from "drizzle-orm";
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { GET as getRoute } from "@/app/api/v1/packages/[packageId]/route";
import { GET as downloadRoute } from "@/app/api/v1/packages/[packageId]/download/route";
import { GET as zipRoute } from "@/app/api/v1/packages/[packageId]/download/zip/route";
import { GET as certificateRoute } from "@/app/api/v1/packages/[packageId]/certificate/route";
import { POST as holdRoute } from "@/app/api/v1/packages/[packageId]/hold/route";
import { POST as addRecipientRoute } from "@/app/api/v1/packages/[packageId]/recipients/route";
import { POST as verifyRoute } from "@/app/api/app/verify/route";
import { auditEvents, sealedFiles } from "@/server/db/schema";
import { verifyAuditChain } from "@/server/domain/audit/verify-audit-chain";
import { eventNames } from "@/server/domain/packages/test-support/fixtures";
import { resetEnvCache } from "@/server/env";
import { setClock } from "@/server/lib/clock";
import { getFileStore } from "@/server/storage/get-file-store";
import { expectOtherWorkspaceGets404 } from "@/server/test/cross-workspace";
import { useTestDb } from "@/server/test/db";
import { callJson, callRoute } from "@/server/test/http";
import { makeOriginal, runTool } from "@/server/test/sealing-fixtures";
import { signedPackage as signedPackageIn, TYPED_NAME } from "@/server/test/signed-package";
import { runDueItem } from "@/server/lib/jobs";
import { claimSealJob, SEAL_LEASE_MS } from "./jobs";
import { sealClaimedPackage } from "./seal-claimed-package";
import { sealDuePackages } from "./seal-due-packages";
import { resetSigningIdentity } from "./signing-identity";
import { verifySealedUpload } from "./verify-sealed-upload";

const t = useTestDb();
const dir = mkdtempSync(path.join(tmpdir(), "foliosign-sealjob-"));
const start = new Date("2026-03-02T09:00:00Z");
let clock = start;

beforeEach(() => {
  clock = start;
  setClock(() => clock);
  // Each test empties the database, signing_keys included: the identity is made again per test.
  resetSigningIdentity();
});
afterEach(() => setClock(undefined));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

type TPkg = {
  id: string;
  status: string;
  completedAt: string | null;
  recipientSessions: { id: string }[];
  sealing: null | { state: string; attempts: number; lastError: string | null; nextAttemptAt: string | null; failedAt: string | null };
};

/** Every test's package: see server/test/signed-package.ts. */
const signedPackage = () => signedPackageIn(t.db);

async function getPackage(key: string, packageId: string) {
  return (await callJson<{ data: TPkg }>(getRoute, { key, params: { packageId } })).body.data;
}

async function download(route: typeof downloadRoute, key: string, packageId: string, name: string) {
  const res = await callRoute(route, { key, params: { packageId } });
  const file = path.join(dir, name);
  writeFileSync(file, Buffer.from(await res.arrayBuffer()));
  return { res, file };
}

const pages = (file: string) => Number(/Pages:\s+(\d+)/.exec(runTool("pdfinfo", [file]).out)?.[1]);
const text = (file: string) => runTool("pdftotext", ["-enc", "UTF-8", file, "-"]).out;

async function verifyCall(bytes: Uint8Array) {
  const req = new Request("http://localhost:3000/api/app/verify", {
    method: "POST",
    headers: { "content-type": "application/pdf", "sec-fetch-site": "same-origin" },
    body: Buffer.from(bytes),
  });
  const res = await verifyRoute(req, { params: Promise.resolve({}) });
  return { status: res.status, body: (await res.json()) as { data: Awaited<ReturnType<typeof verifySealedUpload>>; error?: string } };
}

describe("sealing job", () => {
  it("completes the package only when the sealed files are stored; the files verify with poppler and qpdf", async () => {
    const { key, pkgId, last } = await signedPackage();
    expect(last.packageStatus).toBe("IN_PROGRESS");
    const pending = await getPackage(key, pkgId);
    expect(pending.status).toBe("IN_PROGRESS");
    expect(pending.sealing).toMatchObject({ state: "PENDING", attempts: 0, lastError: null });
    expect(await eventNames(t.db, pkgId)).not.toContain("PACKAGE_COMPLETED");
    const early = await callJson<{ error: string }>(downloadRoute, { key, params: { packageId: pkgId } });
    expect(early).toMatchObject({ status: 409, body: { error: "The package is not completed yet" } });
    expect((await callRoute(zipRoute, { key, params: { packageId: pkgId } })).status).toBe(409);
    expect((await callRoute(certificateRoute, { key, params: { packageId: pkgId } })).status).toBe(409);
    // Sealed from exactly these recipients: no correction, no hold while it is due.
    const added = await callJson<{ error: string }>(addRecipientRoute, { key, params: { packageId: pkgId }, body: { email: "late@example.com" } });
    expect(added).toMatchObject({
      status: 409,
      body: { error: "Every recipient has signed and the package is being sealed; its recipients can no longer be changed" },
    });
    expect((await callJson(holdRoute, { key, params: { packageId: pkgId } })).status).toBe(409);

    clock = new Date(start.getTime() + 5_000);
    expect(await sealDuePackages(t.db)).toEqual([{ packageId: pkgId, outcome: "sealed" }]);
    expect(await sealDuePackages(t.db)).toEqual([]);

    const done = await getPackage(key, pkgId);
    expect(done.status).toBe("COMPLETED");
    expect(done.sealing).toBeNull();
    // completedAt is when the last recipient finished (the time the certificate prints), not when sealing ran.
    expect(done.completedAt).toBe(start.toISOString());
    const names = await eventNames(t.db, pkgId);
    expect(names.at(-1)).toBe("PACKAGE_COMPLETED");
    expect(names.filter((n) => n === "PACKAGE_COMPLETED")).toHaveLength(1);
    const files = await t.db.select().from(sealedFiles).where(eq(sealedFiles.packageId, pkgId));
    expect(files.map((f) => f.kind).sort()).toEqual(["certificate", "document", "merged"]);
    const certificatePages = files.find((f) => f.kind === "certificate")!.pages;

    const merged = await download(downloadRoute, key, pkgId, "merged.pdf");
    expect(merged.res.status).toBe(200);
    expect(merged.res.headers.get("content-type")).toBe("application/pdf");
    expect(runTool("pdfsig", [merged.file]).out).toMatch(/Signature Validation: Signature is Valid/);
    expect(runTool("qpdf", ["--check", merged.file]).code).toBe(0);
    expect(pages(merged.file)).toBe(1 + certificatePages);
    const mergedText = text(merged.file);
    expect(mergedText).toContain("Tina Tenant");
    expect(mergedText).toContain(TYPED_NAME);

    const certificate = await download(certificateRoute, key, pkgId, "certificate.pdf");
    expect(certificate.res.status).toBe(200);
    expect(runTool("pdfsig", [certificate.file]).out).toMatch(/Signature Validation: Signature is Valid/);
    expect(runTool("qpdf", ["--check", certificate.file]).code).toBe(0);
    expect(pages(certificate.file)).toBe(certificatePages);
    const certificateText = text(certificate.file);
    expect(certificateText).toContain("Lease 4B");
    // Times with their zone: recipient one's in Paris (name and offset) and in UTC; recipient two's in UTC only.
    expect(certificateText).toContain("Europe/Paris");
    expect(certificateText).toContain("2026-03-02 10:00:00 GMT+01:00 (Europe/Paris) · 2026-03-02 09:00:00 UTC");
    expect(certificateText).toContain("2026-03-02 09:00:00 UTC (time zone not recorded)");
    // The head of the audit hash chain as it stood when sealed: the link that the completion event follows. The
    // clock stood still, so every event shares one instant: the head is found by the chain, not by time.
    const [completedEvent] = await t.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.subjectId, pkgId), eq(auditEvents.action, "package.completed")));
    const chain = await verifyAuditChain(t.db, "package", pkgId);
    expect(chain.ok).toBe(true);
    expect(chain.head).toBe(completedEvent!.hash);
    expect(completedEvent!.previousHash).toMatch(/^[0-9a-f]{64}$/);
    expect(certificateText).toMatch(new RegExp(`Hash-chain head\\s+${completedEvent!.previousHash}`));
    expect(mergedText).toContain(completedEvent!.previousHash!);

    const zip = await download(zipRoute, key, pkgId, "package.zip");
    expect(zip.res.status).toBe(200);
    expect(zip.res.headers.get("content-type")).toBe("application/zip");
    expect(Number(zip.res.headers.get("content-length"))).toBeGreaterThan(0);
    const listing = execFileSync("unzip", ["-Z1", zip.file], { encoding: "utf8" }).trim().split("\n");
    expect(listing.sort()).toEqual(["certificate.pdf", "lease.pdf"]);
    execFileSync("unzip", ["-o", "-q", zip.file, "-d", path.join(dir, "unzipped")]);
    expect(runTool("pdfsig", [path.join(dir, "unzipped", "lease.pdf")]).out).toMatch(/Signature is Valid/);

    // Verification: the file as sealed → unaltered, with title, time and names only (no email anywhere).
    const { readFileSync } = await import("node:fs");
    const bytes = new Uint8Array(readFileSync(merged.file));
    const ok = await verifyCall(bytes);
    expect(ok.status).toBe(200);
    expect(ok.body.data).toEqual({
      sealedHere: true,
      unaltered: true,
      message: "This file was sealed by this instance and has not been changed since.",
      package: { title: "Lease 4B", completedAt: start.toISOString(), signers: ["Tina Tenant", TYPED_NAME] },
      // No TSA configured in tests: B-B, no trusted time (issue 20; evidence/evidence.test.ts covers B-LTA).
      evidence: { level: "B-B", trustedTime: false, timestamps: [] },
      newerVersion: false,
      test: false,
    });
    expect(JSON.stringify(ok.body)).not.toContain("@example.com");

    // One changed byte inside the signed content: pdfsig fails and /verify says altered.
    const changed = new Uint8Array(bytes);
    const range = /\/ByteRange\s*\[\s*0\s+(\d+)/.exec(Buffer.from(bytes).toString("latin1"));
    const at = Math.floor(Number(range![1]) / 2);
    changed[at] = changed[at]! ^ 0x01;
    const changedFile = path.join(dir, "changed.pdf");
    writeFileSync(changedFile, changed);
    expect(runTool("pdfsig", [changedFile]).out).not.toMatch(/Signature Validation: Signature is Valid/);
    const altered = await verifyCall(changed);
    expect(altered.body.data).toEqual({
      sealedHere: true,
      unaltered: false,
      message: "This file was changed after it was sealed.",
      package: null,
      evidence: { level: "B-B", trustedTime: false, timestamps: [] },
      newerVersion: false,
      test: false,
    });

    // A PDF this instance never sealed, and an empty upload.
    const foreign = await verifyCall(await makeOriginal(1));
    expect(foreign.body.data).toMatchObject({ sealedHere: false, unaltered: false, package: null });
    const empty = await verifyCall(new Uint8Array());
    expect(empty.status).toBe(400);
  });

  it("retries a failing seal on its schedule, visibly, without completing the package or raising PACKAGE_COMPLETED", async () => {
    const { key, pkgId } = await signedPackage();
    const store = await getFileStore();
    await store.delete("files/lease");

    expect(await sealDuePackages(t.db)).toEqual([{ packageId: pkgId, outcome: "failed" }]);
    let pkg = await getPackage(key, pkgId);
    expect(pkg.status).toBe("IN_PROGRESS");
    expect(pkg.sealing).toEqual({
      state: "RETRYING",
      requestedAt: start.toISOString(),
      attempts: 1,
      lastError: "The original of “lease.pdf” is missing from storage",
      nextAttemptAt: new Date(start.getTime() + 60_000).toISOString(),
      failedAt: null,
    });
    expect(await eventNames(t.db, pkgId)).not.toContain("PACKAGE_COMPLETED");
    expect(await t.db.select().from(sealedFiles).where(eq(sealedFiles.packageId, pkgId))).toEqual([]);

    // Not due before its time; due after it, and the backoff doubles.
    clock = new Date(start.getTime() + 59_000);
    expect(await sealDuePackages(t.db)).toEqual([]);
    clock = new Date(start.getTime() + 60_000);
    expect(await sealDuePackages(t.db)).toEqual([{ packageId: pkgId, outcome: "failed" }]);
    pkg = await getPackage(key, pkgId);
    expect(pkg.sealing).toMatchObject({ state: "RETRYING", attempts: 2, nextAttemptAt: new Date(start.getTime() + 180_000).toISOString() });

    // The original comes back: the next attempt seals and completes.
    await store.put("files/lease", Readable.from([await makeOriginal(1)]), { contentType: "application/pdf" });
    clock = new Date(start.getTime() + 180_000);
    expect(await sealDuePackages(t.db)).toEqual([{ packageId: pkgId, outcome: "sealed" }]);
    pkg = await getPackage(key, pkgId);
    expect(pkg.status).toBe("COMPLETED");
    expect(pkg.sealing).toBeNull();
    expect((await eventNames(t.db, pkgId)).filter((n) => n === "PACKAGE_COMPLETED")).toHaveLength(1);
  });

  it("takes a package over after a lost worker's lease; the stale claim can no longer complete it", async () => {
    const { key, pkgId } = await signedPackage();
    const stale = await runDueItem(t.db, claimSealJob, { at: start, skip: [] });
    expect(stale?.item.id).toBe(pkgId);
    // Claimed and leased: not due again until the lease ends (the worker holding it may still be sealing).
    expect(await runDueItem(t.db, claimSealJob, { at: new Date(start.getTime() + SEAL_LEASE_MS - 1), skip: [] })).toBeUndefined();
    clock = new Date(start.getTime() + SEAL_LEASE_MS);
    const fresh = await runDueItem(t.db, claimSealJob, { at: clock, skip: [] });
    expect(fresh?.item.id).toBe(pkgId);
    expect(await sealClaimedPackage(t.db, stale!.item)).toBe("superseded");
    expect((await getPackage(key, pkgId)).status).toBe("IN_PROGRESS");
    expect(await sealClaimedPackage(t.db, fresh!.item)).toBe("sealed");
    const files = await t.db.select().from(sealedFiles).where(eq(sealedFiles.packageId, pkgId));
    expect(files).toHaveLength(3);
    expect(files.every((f) => f.storageKey.includes(fresh!.item.token))).toBe(true);
  });

  it.runIf(Boolean(process.env.DATABASE_URL))("on PostgreSQL, two workers claiming at once take the due package once", async () => {
    const { pkgId } = await signedPackage();
    const claims = await Promise.all([0, 1].map(() => runDueItem(t.db, claimSealJob, { at: start, skip: [] })));
    expect(claims.filter(Boolean).map((c) => c!.item.id)).toEqual([pkgId]);
  });

  it("refuses the merged download past MAX_MERGED_DOWNLOAD_BYTES with a message pointing to the zip", async () => {
    const { key, pkgId } = await signedPackage();
    await sealDuePackages(t.db);
    process.env.MAX_MERGED_DOWNLOAD_BYTES = "1024";
    resetEnvCache();
    try {
      const res = await callJson<{ error: string }>(downloadRoute, { key, params: { packageId: pkgId } });
      expect(res.status).toBe(413);
      expect(res.body.error).toMatch(/download the zip instead: GET \/api\/v1\/packages\/.+\/download\/zip/);
      expect((await callRoute(zipRoute, { key, params: { packageId: pkgId } })).status).toBe(200);
    } finally {
      delete process.env.MAX_MERGED_DOWNLOAD_BYTES;
      resetEnvCache();
    }
  });

  it("answers 404 to another workspace on every download route", async () => {
    const { org, key, pkgId } = await signedPackage();
    await sealDuePackages(t.db);
    for (const route of [downloadRoute, zipRoute, certificateRoute]) {
      await expectOtherWorkspaceGets404(t.db, route, { org, params: { packageId: pkgId }, ownKey: key });
    }
  });
});
