/**
 * Protects "an interrupted seal resumes within 2 minutes" across processes, on PostgreSQL (issue 24 item 6):
 * worker B is running; worker A claims the due package and is SIGKILLed mid-seal. B leaves the package alone
 * while A's lease could still be live, and takes it over as soon as one short lease (SEAL_LEASE_MS, 60 s) has
 * passed since A's claim — B's clock is moved, nobody waits — then seals it: COMPLETED, attempt 2, every sealed
 * file under B's claim, nothing committed from A's.
 *
 * The package is made due an hour ahead and A's clock runs an hour ahead, so only A sees it due at first.
 * Skipped without DATABASE_URL: two worker processes need PostgreSQL.
 * Run: DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx vitest run server/domain/sealing/seal-crash.test.ts
 */
import { Readable } from "node:stream";
import { eq } from "drizzle-orm";
import { afterAll, describe, expect, it, vi } from "vitest";
import { packages, sealedFiles } from "@/server/db/schema";
import { killAll, spawnWorker } from "@/server/jobs/test-support/spawn-worker";
import { getFileStore } from "@/server/storage/get-file-store";
import { useTestDb } from "@/server/test/db";
import { makeOriginal } from "@/server/test/sealing-fixtures";
import { signedPackage } from "@/server/test/signed-package";
import { SEAL_LEASE_MS } from "./jobs";

const base = process.env.DATABASE_URL;
const t = useTestDb();
afterAll(killAll);

const HOUR = 3_600_000;
const row = async (id: string) => (await t.db.select().from(packages).where(eq(packages.id, id)))[0]!;

describe.skipIf(!base)("a sealing worker SIGKILLed mid-seal (PostgreSQL)", () => {
  it("B, running beside A, takes the package over one short lease after A's claim and seals it", { timeout: 180_000 }, async () => {
    const url = t.url;
    const { pkgId } = await signedPackage(t.db);
    // A longer original, so that A is still sealing (reading fonts, drawing, signing) when it is killed.
    await (await getFileStore()).put("files/lease", Readable.from([await makeOriginal(80)]), { contentType: "application/pdf" });
    await t.db
      .update(packages)
      .set({ sealNextAttemptAt: new Date(Date.now() + HOUR) })
      .where(eq(packages.id, pkgId));

    const b = spawnWorker(url, "B");
    await b.logged((l) => l.msg === "worker started");
    await b.command({ cmd: "tick" }, "ticked");
    expect(await row(pkgId)).toMatchObject({ sealAttempts: 0, sealClaimToken: null });

    // A, an hour ahead, claims at its start and starts sealing; it is killed as soon as its claim is seen.
    const a = spawnWorker(url, "A", { offsetMs: HOUR });
    await vi.waitFor(async () => expect((await row(pkgId)).sealClaimToken).not.toBeNull(), { timeout: 60_000, interval: 20 });
    a.child.kill("SIGKILL");
    expect(await a.exited).toBeNull();
    const claimedByA = await row(pkgId);
    expect(claimedByA).toMatchObject({ status: "IN_PROGRESS", sealAttempts: 1 });
    expect(await t.db.select().from(sealedFiles).where(eq(sealedFiles.packageId, pkgId))).toEqual([]);

    // B, an hour ahead but short of A's lease: A might still be alive, so B leaves the package alone.
    await b.command({ cmd: "advance", ms: HOUR }, "advanced");
    expect(await row(pkgId)).toMatchObject({ status: "IN_PROGRESS", sealAttempts: 1, sealClaimToken: claimedByA.sealClaimToken });

    // A minute later (by B's clock; the lease is SEAL_LEASE_MS) B takes it over and seals it; the "advanced"
    // answer comes after the seal.
    expect(SEAL_LEASE_MS).toBeLessThanOrEqual(60_000);
    const sealed = b.logged((l) => l.msg === "package sealed and completed" && l.packageId === pkgId);
    await b.command({ cmd: "advance", ms: 60_000 }, "advanced");
    expect(await sealed).toMatchObject({ attempts: 2 });
    const done = await row(pkgId);
    expect(done).toMatchObject({ status: "COMPLETED", sealAttempts: 2, sealClaimToken: null, sealLastError: null, sealFailedAt: null });
    const files = await t.db.select().from(sealedFiles).where(eq(sealedFiles.packageId, pkgId));
    expect(files).toHaveLength(3);
    expect(files.every((f) => !f.storageKey.includes(claimedByA.sealClaimToken!))).toBe(true);

    b.child.kill("SIGTERM");
    expect(await b.exited).toBe(0);
  });
});
