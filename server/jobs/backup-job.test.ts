/**
 * Scheduled backups of the embedded database while it runs (backup-job.ts, backupRunning in server/cli/backup.ts),
 * on a real PGlite directory on disk that stays open and in use throughout:
 * - the first tick with BACKUP_DIR makes `foliosign-<time>.tgz` (readable by its owner only), noted in the
 *   installation, which `restore --check` finds good and `restore` installs with every row of the moment it was
 *   made; the database answered queries while it was made, and writes made after the copy are not in it;
 * - the schedule is the installation's note: not again before BACKUP_EVERY_HOURS, again after; the newest
 *   BACKUP_KEEP scheduled files stay, older ones are deleted, other files in the folder never are;
 * - a failure is logged, leaves no file, and is tried again an hour later, not at every tick;
 * - nothing is done without BACKUP_DIR, or on a database without a directory to copy.
 * The feature is the embedded database's, so this file uses PGlite whichever driver the run tests.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { count, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { openPglite, type DbHandle } from "@/server/db/client";
import { migrate, shippedMigrations } from "@/server/db/migrate";
import { backups, organisations, webhookEndpoints } from "@/server/db/schema";
import { createEndpoint } from "@/server/domain/webhooks/endpoints/create-endpoint";
import { setClock } from "@/server/lib/clock";
import { manualClock } from "@/server/test/manual-clock";
import { decryptSecretWith } from "@/server/lib/crypto";
import { ownerActor } from "@/server/test/actors";
import { createTestOrg } from "@/server/test/factories";
import { restoreCommand } from "@/server/cli/backup";
import type { TInstallation } from "@/server/cli/backup-archive";
import { backupRunning } from "@/server/cli/backup-running";
import { BACKUP_RETRY_MS, createBackupJob, type TBackupSchedule } from "./backup-job";

const KEY = process.env.ENCRYPTION_KEY!; // vitest.config.ts
const HOUR = 3_600_000;
const scratch = mkdtempSync(path.join(os.tmpdir(), "foliosign-backup-job-test-"));
const inst: TInstallation = {
  dataDir: path.join(scratch, "data"),
  pgliteDir: path.join(scratch, "data", "pglite"),
  storage: "database",
  env: { ENCRYPTION_KEY: KEY },
  journal: shippedMigrations(),
};
const dir = path.join(scratch, "backups");
const schedule: TBackupSchedule = { dir, everyHours: 24, keep: 2, installation: inst };
let live: DbHandle;
let endpointSecret = "";
const clock = manualClock("2030-05-01T02:00:00.000Z");
const signal = new AbortController().signal;

const scheduled = () =>
  readdirSync(dir)
    .filter((n) => n.endsWith(".tgz"))
    .sort();
const io = () => {
  const err: string[] = [];
  return { err, io: { out: () => {}, err: (l: string) => err.push(l) } };
};

beforeAll(async () => {
  clock.use();
  const snapshot = inject("pgliteSnapshot");
  live = await openPglite(snapshot ? { dataDir: inst.pgliteDir, loadDataDir: new Blob([readFileSync(snapshot)]) } : { dataDir: inst.pgliteDir });
  if (!snapshot) await migrate(live);
  const org = await createTestOrg(live.db, "Before the backup");
  endpointSecret = (await createEndpoint(live.db, ownerActor(org), { url: "https://93.184.216.34/hook" })).secret;
});

afterAll(async () => {
  setClock(undefined);
  await live?.close();
  rmSync(scratch, { recursive: true, force: true });
});

describe("scheduled backups of the running embedded database", () => {
  const job = createBackupJob(schedule);

  it("makes a backup at the first tick while the database stays in use; it restores as it stood", async () => {
    await job.run(live, signal);
    const making = job.running();
    expect(making).not.toBeNull();
    // The database answers while the backup is made: reads and writes go on (held off only during the copy).
    const during = await createTestOrg(live.db, "During the backup");
    await making;
    expect(job.running()).toBeNull();

    const [file] = scheduled();
    expect(file).toBe("foliosign-20300501T020000Z.tgz");
    expect(statSync(path.join(dir, file!)).mode & 0o777).toBe(0o600);
    expect(readdirSync(dir)).toEqual([file]); // no partial file, no stage left behind
    expect(await live.db.select().from(backups)).toEqual([
      expect.objectContaining({ madeAt: clock.now, file, bytes: statSync(path.join(dir, file!)).size, withSecrets: true }),
    ]);

    const checked = io();
    expect(await restoreCommand({ ...inst, dataDir: path.join(scratch, "elsewhere") }, { from: path.join(dir, file!), check: "true" }, checked.io)).toBe(0);
    expect(checked.err.join("\n")).toMatch(/^The backup is good: /);

    // Restored into an empty installation: the organisation made before it, the endpoint whose secret still
    // decrypts with the key; the organisation made while it was archived only if it was made before the copy.
    const restored: TInstallation = { ...inst, dataDir: path.join(scratch, "restored"), pgliteDir: path.join(scratch, "restored", "pglite"), env: {} };
    expect(await restoreCommand(restored, { from: path.join(dir, file!) }, io().io)).toBe(0);
    const back = await openPglite({ dataDir: restored.pgliteDir });
    try {
      const names = (await back.db.select({ name: organisations.name }).from(organisations)).map((o) => o.name);
      expect(names).toContain("Before the backup");
      const [endpoint] = await back.db.select().from(webhookEndpoints);
      expect(decryptSecretWith(Buffer.from(KEY, "hex"), endpoint!.secretEncrypted)).toBe(endpointSecret);
      // A backup does not hold its own note.
      expect(await back.db.select({ n: count() }).from(backups)).toEqual([{ n: 0 }]);
    } finally {
      await back.close();
    }
    expect(JSON.parse(readFileSync(path.join(restored.dataDir, "secrets.json"), "utf8"))).toMatchObject({ ENCRYPTION_KEY: KEY });
    expect(during.organisationId).toMatch(/^org_/);
    // And the live database still has both organisations: nothing of it was held or lost.
    expect((await live.db.select({ n: count() }).from(organisations).where(eq(organisations.name, "During the backup")))[0]!.n).toBe(1);
  });

  it("makes the next one only after BACKUP_EVERY_HOURS, and keeps the newest BACKUP_KEEP of them", async () => {
    writeFileSync(path.join(dir, "notes.txt"), "not a backup");
    // What a backup killed midway would have left: its copy and its unfinished file.
    mkdirSync(path.join(dir, ".foliosign-backup-Ab12Cd"));
    writeFileSync(path.join(dir, ".foliosign-backup-Ab12Cd", "PG_VERSION"), "17");
    writeFileSync(path.join(dir, "foliosign-20300501T120000Z.tgz.partial-4242"), "half");
    clock.advance(23 * HOUR);
    await job.run(live, signal);
    expect(job.running()).toBeNull();
    clock.advance(HOUR);
    await job.run(live, signal);
    await job.running();
    clock.advance(24 * HOUR);
    await job.run(live, signal);
    await job.running();
    expect(scheduled()).toEqual(["foliosign-20300502T020000Z.tgz", "foliosign-20300503T020000Z.tgz"]);
    expect(readdirSync(dir).sort()).toEqual(["foliosign-20300502T020000Z.tgz", "foliosign-20300503T020000Z.tgz", "notes.txt"]);
    // Every backup made is noted, including the one whose file was since deleted.
    expect((await live.db.select({ file: backups.file }).from(backups)).map((b) => b.file)).toEqual([
      "foliosign-20300501T020000Z.tgz",
      "foliosign-20300502T020000Z.tgz",
      "foliosign-20300503T020000Z.tgz",
    ]);
  });

  it("after a failure leaves no file and tries again an hour later, not at every tick", async () => {
    const blocked = path.join(scratch, "not-a-folder");
    writeFileSync(blocked, "a file where the folder should be");
    const failing = createBackupJob({ ...schedule, dir: path.join(blocked, "backups") });
    clock.advance(24 * HOUR);
    await failing.run(live, signal);
    await failing.running();
    const notes = async () => (await live.db.select({ n: count() }).from(backups))[0]!.n;
    expect(await notes()).toBe(3);
    clock.advance(BACKUP_RETRY_MS - 1);
    await failing.run(live, signal);
    expect(failing.running()).toBeNull();
    // The folder is fixed; an hour after the failure the backup is made.
    rmSync(blocked);
    mkdirSync(blocked);
    clock.advance(1);
    await failing.run(live, signal);
    await failing.running();
    expect(readdirSync(path.join(blocked, "backups"))).toEqual(["foliosign-20300504T030000Z.tgz"]);
    expect(await notes()).toBe(4);
  });

  it("refuses a folder inside the database's own folder, and says so", async () => {
    const inside = path.join(inst.pgliteDir, "backups");
    await expect(backupRunning(live, inst, { dir: inside, keep: 1, at: clock.now })).rejects.toThrow(
      `The backup folder ${inside} is inside the database's folder ${inst.pgliteDir} (PGLITE_DIR): choose a folder outside it.`,
    );
    expect(existsSync(inside)).toBe(false);
  });

  it("does nothing without BACKUP_DIR, nor on a database without a directory to copy", async () => {
    const before = scheduled();
    clock.advance(48 * HOUR);
    const off = createBackupJob(null);
    await off.run(live, signal);
    expect(off.running()).toBeNull();
    const memory = await openPglite();
    try {
      const onMemory = createBackupJob(schedule);
      await onMemory.run(memory, signal);
      expect(onMemory.running()).toBeNull();
    } finally {
      await memory.close();
    }
    expect(scheduled()).toEqual(before);
  });
});
