/**
 * `npm run admin -- backup` / `restore` (backup.ts) on real PGlite directories on disk: a backup restores into
 * an empty installation with every table's rows, a stored file's bytes, a webhook secret that still decrypts and
 * the same secrets; and every refusal (a database already there, another ENCRYPTION_KEY, no key, a damaged,
 * hostile or newer file, an existing output, PostgreSQL, a directory in use) says why and leaves nothing behind.
 * The feature is the embedded database's, so this file uses PGlite whichever driver the run tests.
 */
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { sql } from "drizzle-orm";
import { create as tarCreate, extract as tarExtract, list as tarList } from "tar";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { DatabaseInUseError } from "@/server/boot";
import { openPglite, queryRows, type DbHandle } from "@/server/db/client";
import { migrate, shippedMigrations } from "@/server/db/migrate";
import { backups, webhookEndpoints } from "@/server/db/schema";
import { createEndpoint } from "@/server/domain/webhooks/endpoints/create-endpoint";
import { decryptSecretWith } from "@/server/lib/crypto";
import { createDbFileStore } from "@/server/storage/create-db-file-store";
import { ownerActor } from "@/server/test/actors";
import { createTestOrg } from "@/server/test/factories";
import { backupCommand, restoreCommand } from "./backup";
import type { TInstallation } from "./backup-archive";
import { runAdmin } from "./run-admin";

const KEY = process.env.ENCRYPTION_KEY!; // vitest.config.ts: the key the source's secrets are encrypted with
const OTHER_KEY = "ff".repeat(32);
const SESSION_SECRET = "a-session-secret-of-at-least-32-characters";
const FILE_BYTES = Buffer.from(Array.from({ length: 700_000 }, (_, i) => (i * 7919) % 251)); // three chunks

const scratch = mkdtempSync(path.join(os.tmpdir(), "foliosign-backup-test-"));
let n = 0;
const fresh = (name: string) => path.join(scratch, `${name}-${++n}`);

/** An installation in `dataDir` (PGLITE_DIR = dataDir/pglite), with `env` as its environment's secrets. */
function installation(dataDir: string, env: TInstallation["env"] = {}, extra: Partial<TInstallation> = {}): TInstallation {
  return { dataDir, pgliteDir: path.join(dataDir, "pglite"), storage: "database", env, journal: shippedMigrations(), ...extra };
}

async function admin(inst: TInstallation, ...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runAdmin(
    argv,
    async () => Promise.reject(new Error("no database for file commands")),
    { out: (l) => out.push(l), err: (l) => err.push(l) },
    () => inst,
  );
  return { code, out, err: err.join("\n") };
}

async function tableRows(handle: DbHandle): Promise<Record<string, number>> {
  const tables = await queryRows<{ name: string }>(handle.db, sql`select tablename as name from pg_tables where schemaname = 'public' order by 1`);
  const rows: Record<string, number> = {};
  for (const { name } of tables)
    rows[name] = Number((await queryRows<{ n: number }>(handle.db, sql`select count(*)::int as n from ${sql.identifier(name)}`))[0]!.n);
  return rows;
}

async function readAll(stream: Readable): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const part of stream) parts.push(part as Buffer);
  return Buffer.concat(parts);
}

/** Files and folders under `dir`, recursively (what a refusal must leave as it was). */
const tree = (dir: string): string[] => (existsSync(dir) ? readdirSync(dir, { recursive: true }).map(String).sort() : []);

// The source installation: a migrated PGlite directory with an organisation, a webhook endpoint (its secret
// encrypted with KEY), a stored file, and its secrets in DATA_DIR/secrets.json.
const source = installation(fresh("source"));
let sourceRows: Record<string, number>;
let endpointSecret: string;
let backupFile: string;

beforeAll(async () => {
  const snapshot = inject("pgliteSnapshot");
  const handle = await openPglite(snapshot ? { dataDir: source.pgliteDir, loadDataDir: new Blob([readFileSync(snapshot)]) } : { dataDir: source.pgliteDir });
  if (!snapshot) await migrate(handle);
  const org = await createTestOrg(handle.db);
  endpointSecret = (await createEndpoint(handle.db, ownerActor(org), { url: "https://93.184.216.34/hook" })).secret;
  await createDbFileStore({ db: async () => handle.db }).put("files/contract", Readable.from([FILE_BYTES]), { contentType: "application/pdf" });
  sourceRows = await tableRows(handle);
  await handle.close();
  writeFileSync(path.join(source.dataDir, "secrets.json"), JSON.stringify({ NEXTAUTH_SECRET: SESSION_SECRET, ENCRYPTION_KEY: KEY }), { mode: 0o600 });
  backupFile = path.join(scratch, "full.tgz");
  const made = await admin(source, "backup", "--out", backupFile);
  expect(made.err).toMatch(
    /^Backed up 1 organisation\(s\), 0 package\(s\), 0 document\(s\), 1 stored file\(s\) \(migration \d{4}_\w+\): [\d.]+ MB in [\d.]+ s\.\n/,
  );
  expect(made).toMatchObject({ code: 0, out: [backupFile] });
}, 120_000);

afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe("backup", () => {
  it("writes one gzipped tar, readable by its owner only: the manifest, the secrets and the data directory", async () => {
    expect(statSync(backupFile).mode & 0o777).toBe(0o600);
    const names: string[] = [];
    await tarList({ file: backupFile, onReadEntry: (e) => names.push(e.path) });
    expect(names.slice(0, 2)).toEqual(["foliosign-backup.json", "secrets.json"]);
    expect(names).toContain("pglite/PG_VERSION");
    expect(names.every((p) => ["foliosign-backup.json", "secrets.json"].includes(p) || p.startsWith("pglite/"))).toBe(true);
    const unpacked = fresh("unpacked");
    mkdirSync(unpacked);
    await tarExtract({ file: backupFile, cwd: unpacked, filter: (p) => !p.startsWith("pglite") });
    const manifest = JSON.parse(readFileSync(path.join(unpacked, "foliosign-backup.json"), "utf8"));
    const journal = shippedMigrations();
    expect(manifest).toMatchObject({
      format: "foliosign-backup",
      version: 1,
      storage: "database",
      secrets: true,
      migration: { count: journal.length, tag: journal.at(-1)!.tag, when: journal.at(-1)!.when },
      rows: sourceRows,
    });
    expect(JSON.parse(readFileSync(path.join(unpacked, "secrets.json"), "utf8"))).toEqual({ ENCRYPTION_KEY: KEY, NEXTAUTH_SECRET: SESSION_SECRET });
    // The lock was released: `npm start` can open the directory again.
    expect(existsSync(`${source.pgliteDir}.lock`)).toBe(false);
    expect(readdirSync(scratch).filter((f) => f.includes("partial") || f.startsWith(".foliosign-backup-"))).toEqual([]);
  });

  it("notes each backup it completed in the installation (not in the file), for the Readiness page", async () => {
    const handle = await openPglite({ dataDir: source.pgliteDir });
    try {
      const noted = await handle.db.select().from(backups).orderBy(backups.id);
      expect(noted[0]).toMatchObject({ file: "full.tgz", bytes: statSync(backupFile).size, withSecrets: true });
      // Made within the test run: the manifest's time.
      expect(Math.abs(noted[0]!.madeAt.getTime() - Date.now())).toBeLessThan(10 * 60_000);
    } finally {
      await handle.close();
    }
    expect(sourceRows.backups).toBe(0);
  });

  it("says how far it is while it writes, in megabytes of the data directory", async () => {
    const lines: string[] = [];
    const file = fresh("progress.tgz");
    expect(await backupCommand(source, { out: file }, { out: () => {}, err: (l) => lines.push(l) }, { progressEveryMs: 0 })).toBe(0);
    const reports = lines.filter((l) => l.startsWith("Backing up… "));
    expect(reports.length).toBeGreaterThan(10);
    const figures = reports.map((l) => /^Backing up… ([\d.]+) of ([\d.]+) MB$/.exec(l)!.slice(1).map(Number));
    const total = figures[0]![1]!;
    expect(figures.every(([done, of]) => of === total && done! <= total)).toBe(true);
    expect(figures.map(([done]) => done)).toEqual([...figures.map(([done]) => done!)].sort((a, b) => a - b)); // only forward
    expect(lines.find((l) => l.startsWith("Backed up "))).toContain(`: ${total} MB in `);

    const restoring: string[] = [];
    expect(
      await restoreCommand(installation(fresh("progress")), { from: file }, { out: () => {}, err: (l) => restoring.push(l) }, { progressEveryMs: 0 }),
    ).toBe(0);
    const unpacking = restoring.filter((l) => l.startsWith("Unpacking… ")).map((l) => /^Unpacking… ([\d.]+) of ([\d.]+) MB$/.exec(l)!.slice(1).map(Number));
    expect(unpacking.length).toBeGreaterThan(10);
    expect(unpacking.every(([, of]) => of === Number((statSync(file).size / 1_000_000).toFixed(1)))).toBe(true);
  });

  it("refuses an existing output, a missing --out, PostgreSQL, an empty PGLITE_DIR, a key that does not decrypt the data, and a directory in use", async () => {
    const before = readFileSync(backupFile);
    const again = await admin(source, "backup", "--out", backupFile);
    expect([again.code, again.err]).toEqual([1, `Refused: ${backupFile} exists: a backup never overwrites a file. Choose another name.`]);
    expect(readFileSync(backupFile).equals(before)).toBe(true);

    expect(await admin(source, "backup")).toMatchObject({ code: 2, err: "--out is required. Run `npm run admin -- help`." });

    const pg = await admin({ ...source, databaseUrl: "postgres://127.0.0.1:5432/foliosign", storage: "s3" }, "backup", "--out", fresh("pg.tgz"));
    expect(pg.code).toBe(1);
    expect(pg.err).toContain('`pg_dump --format=custom --file=foliosign.dump "$DATABASE_URL"`');
    expect(pg.err).toContain("and the S3 bucket's files (versioning or replication).");

    const empty = installation(fresh("empty"));
    const none = await admin(empty, "backup", "--out", fresh("none.tgz"));
    expect([none.code, none.err]).toEqual([1, `Refused: There is no database at ${empty.pgliteDir} (PGLITE_DIR): nothing to back up.`]);

    const wrongKeyOut = fresh("wrong-key.tgz");
    const wrongKey = await admin({ ...source, env: { ENCRYPTION_KEY: OTHER_KEY } }, "backup", "--out", wrongKeyOut);
    expect([wrongKey.code, wrongKey.err]).toEqual([
      1,
      "Refused: The ENCRYPTION_KEY from ENCRYPTION_KEY in the environment does not decrypt a webhook endpoint's secret: this backup could not be restored. Set the key this installation runs with.",
    ]);
    expect(existsSync(wrongKeyOut)).toBe(false);

    writeFileSync(`${source.pgliteDir}.lock`, String(process.ppid)); // a live process (the test runner's parent) holds it
    try {
      await expect(admin(source, "backup", "--out", fresh("busy.tgz"))).rejects.toThrow(DatabaseInUseError);
    } finally {
      rmSync(`${source.pgliteDir}.lock`);
    }
    expect(readdirSync(scratch).filter((f) => f.includes("partial") || f.startsWith(".foliosign-backup-"))).toEqual([]);
  });
});

// Each restore opens the unpacked database (PGlite, seconds each on a busy two-core machine) and some tests
// run several: more than the default 30 s there (35 s measured with other work running).
describe("restore", { timeout: 120_000 }, () => {
  it("puts everything back into an empty installation: every table's rows, a file's bytes, a secret that decrypts, the same secrets", async () => {
    const target = installation(fresh("restored"));
    const res = await admin(target, "restore", "--from", backupFile);
    expect(res.err).toContain(`Restored 1 organisation(s), 0 package(s), 0 document(s), 1 stored file(s) from a backup of `);
    expect(res.err).toContain(`Its secrets are in ${path.join(target.dataDir, "secrets.json")}.`);
    expect(res.code).toBe(0);
    expect(JSON.parse(readFileSync(path.join(target.dataDir, "secrets.json"), "utf8"))).toEqual({ ENCRYPTION_KEY: KEY, NEXTAUTH_SECRET: SESSION_SECRET });
    expect(statSync(path.join(target.dataDir, "secrets.json")).mode & 0o777).toBe(0o600);
    expect(readdirSync(target.dataDir).sort()).toEqual(["pglite", "secrets.json"]); // no staging folder, no lock left

    const handle = await openPglite({ dataDir: target.pgliteDir });
    try {
      expect(await tableRows(handle)).toEqual(sourceRows);
      const file = await createDbFileStore({ db: async () => handle.db }).get("files/contract");
      expect((await readAll(file!.body)).equals(FILE_BYTES)).toBe(true);
      const [endpoint] = await handle.db.select({ secret: webhookEndpoints.secretEncrypted }).from(webhookEndpoints);
      expect(decryptSecretWith(Buffer.from(KEY, "hex"), endpoint!.secret)).toBe(endpointSecret);
    } finally {
      await handle.close();
    }
  });

  it("into an empty PGLITE_DIR that exists, with the same key already configured: keeps that configuration", async () => {
    const target = installation(fresh("configured"), { ENCRYPTION_KEY: KEY });
    mkdirSync(target.pgliteDir, { recursive: true });
    writeFileSync(
      path.join(target.dataDir, "secrets.json"),
      JSON.stringify({ ENCRYPTION_KEY: KEY, NEXTAUTH_SECRET: "another-session-secret-of-32-characters" }),
    );
    const res = await admin(target, "restore", "--from", backupFile);
    expect(res.code).toBe(0);
    expect(res.err).not.toContain("Its secrets are in");
    expect(JSON.parse(readFileSync(path.join(target.dataDir, "secrets.json"), "utf8")).NEXTAUTH_SECRET).toBe("another-session-secret-of-32-characters");
    expect(existsSync(path.join(target.pgliteDir, "PG_VERSION"))).toBe(true);
  });

  it("never overwrites a database, and refuses another ENCRYPTION_KEY (environment or secrets.json), leaving nothing behind", async () => {
    const holder = installation(fresh("holder"));
    expect((await admin(holder, "restore", "--from", backupFile)).code).toBe(0);
    const before = tree(holder.dataDir);
    const over = await admin(holder, "restore", "--from", backupFile);
    expect([over.code, over.err]).toEqual([
      1,
      `Refused: ${holder.pgliteDir} (PGLITE_DIR) already holds a database: a restore never overwrites one. Move it away (or set PGLITE_DIR to an empty folder) first.`,
    ]);
    expect(tree(holder.dataDir)).toEqual(before);

    const envKey = installation(fresh("env-key"), { ENCRYPTION_KEY: OTHER_KEY });
    const byEnv = await admin(envKey, "restore", "--from", backupFile);
    expect([byEnv.code, byEnv.err]).toEqual([
      1,
      "Refused: The ENCRYPTION_KEY from ENCRYPTION_KEY in the environment is not the one this backup's data was encrypted with. Unset it (or move that secrets.json away) to use the backup's key, or set the backup's key there.",
    ]);
    expect(tree(envKey.dataDir)).toEqual([]);

    const fileKey = installation(fresh("file-key"));
    mkdirSync(fileKey.dataDir, { recursive: true });
    writeFileSync(path.join(fileKey.dataDir, "secrets.json"), JSON.stringify({ ENCRYPTION_KEY: OTHER_KEY }));
    const byFile = await admin(fileKey, "restore", "--from", backupFile);
    expect(byFile.code).toBe(1);
    expect(byFile.err).toContain(`The ENCRYPTION_KEY from ${path.join(fileKey.dataDir, "secrets.json")} is not the one this backup's data was encrypted with.`);
    expect(tree(fileKey.dataDir)).toEqual(["secrets.json"]);

    expect(await admin(installation(fresh("pg")), "restore")).toMatchObject({ code: 2, err: "--from is required. Run `npm run admin -- help`." });
    const pg = await admin({ ...installation(fresh("pg")), databaseUrl: "postgres://127.0.0.1:5432/foliosign" }, "restore", "--from", backupFile);
    expect([pg.code, pg.err]).toEqual([
      1,
      'Refused: DATABASE_URL is set: restore PostgreSQL with its own tools (`pg_restore --dbname "$DATABASE_URL" foliosign.dump`). This command restores the embedded database.',
    ]);
  });

  it("--check runs every check in a scratch folder and installs nothing, beside a running installation's database", async () => {
    const running = installation(fresh("running"), { ENCRYPTION_KEY: OTHER_KEY }, { databaseUrl: "postgres://127.0.0.1:5432/foliosign" });
    mkdirSync(running.pgliteDir, { recursive: true });
    writeFileSync(path.join(running.pgliteDir, "PG_VERSION"), "17");
    writeFileSync(`${running.pgliteDir}.lock`, String(process.ppid)); // held by a live process: a check does not need it
    const before = tree(running.dataDir);
    const scratchChecks = () => readdirSync(os.tmpdir()).filter((f) => f.startsWith("foliosign-backup-check-")).length;
    const checksBefore = scratchChecks();
    const res = await admin(running, "restore", "--from", backupFile, "--check");
    expect(res.code).toBe(0);
    expect(res.err.split("\n")).toEqual([
      expect.stringMatching(
        /^The backup is good: 1 organisation\(s\), 0 package\(s\), 0 document\(s\), 1 stored file\(s\), made \S+Z \(migration \d{4}_\w+\); every table's rows match its manifest and the ENCRYPTION_KEY from the backup decrypts its data\.$/,
      ),
      "This installation's ENCRYPTION_KEY (from ENCRYPTION_KEY in the environment) is another one: a restore here would be refused.",
    ]);
    expect(tree(running.dataDir)).toEqual(before);
    expect(scratchChecks()).toBe(checksBefore);

    const bare = path.join(scratch, "bare-for-check.tgz");
    expect((await admin(source, "backup", "--out", bare, "--without-secrets")).code).toBe(0);
    const wrong = await admin(running, "restore", "--from", bare, "--check");
    expect([wrong.code, wrong.err]).toEqual([
      1,
      "Refused: The ENCRYPTION_KEY from ENCRYPTION_KEY in the environment does not decrypt a webhook endpoint's secret of this backup: set the key of the installation it came from.",
    ]);
    expect((await admin({ ...running, env: { ENCRYPTION_KEY: KEY } }, "restore", "--from", bare, "--check")).code).toBe(0);
    expect(tree(running.dataDir)).toEqual(before);
  });

  it("a backup --without-secrets: restores with the installation's own key only, and a wrong key is caught by decrypting the data", async () => {
    const bare = path.join(scratch, "bare.tgz");
    const made = await admin(source, "backup", "--out", bare, "--without-secrets");
    expect(made.code).toBe(0);
    expect(made.err).toContain("Without secrets: keep ENCRYPTION_KEY yourself");
    const names: string[] = [];
    await tarList({ file: bare, onReadEntry: (e) => names.push(e.path) });
    expect(names).not.toContain("secrets.json");

    const noKey = installation(fresh("no-key"));
    const refused = await admin(noKey, "restore", "--from", bare);
    expect([refused.code, refused.err]).toEqual([
      1,
      "Refused: This backup was made --without-secrets and no ENCRYPTION_KEY is configured: set ENCRYPTION_KEY (and NEXTAUTH_SECRET) to the installation's own values first.",
    ]);
    expect(tree(noKey.dataDir)).toEqual([]);

    const wrong = installation(fresh("wrong"), { ENCRYPTION_KEY: OTHER_KEY });
    const wrongRes = await admin(wrong, "restore", "--from", bare);
    expect([wrongRes.code, wrongRes.err]).toEqual([
      1,
      "Refused: The ENCRYPTION_KEY from ENCRYPTION_KEY in the environment does not decrypt a webhook endpoint's secret of this backup: set the key of the installation it came from.",
    ]);
    expect(tree(wrong.dataDir)).toEqual([]);

    const right = installation(fresh("right"), { ENCRYPTION_KEY: KEY });
    expect((await admin(right, "restore", "--from", bare)).code).toBe(0);
    expect(readdirSync(right.dataDir)).toEqual(["pglite"]); // no secrets.json written: the environment holds them
  });

  it("refuses a damaged, hostile or newer file, leaving nothing behind", async () => {
    const whole = readFileSync(backupFile);
    const truncated = path.join(scratch, "truncated.tgz");
    writeFileSync(truncated, whole.subarray(0, Math.floor(whole.length / 2)));
    const target = installation(fresh("damaged"));
    const res = await admin(target, "restore", "--from", truncated);
    expect(res.code).toBe(1);
    expect(res.err).toMatch(new RegExp(`^Refused: ${truncated.replace(/[.]/g, "\\.")} is not a readable backup \\(.+\\)\\.$`));
    expect(tree(target.dataDir)).toEqual([]);

    const notTar = path.join(scratch, "not-a-backup.tgz");
    writeFileSync(notTar, "hello");
    expect((await admin(installation(fresh("not-tar")), "restore", "--from", notTar)).err).toContain("is not a readable backup");
    expect((await admin(installation(fresh("missing")), "restore", "--from", path.join(scratch, "nope.tgz"))).err).toBe(
      `Refused: ${path.join(scratch, "nope.tgz")} does not exist.`,
    );

    // The backup unpacked, changed, and packed again.
    const repack = async (name: string, change: (dir: string) => void, entries = ["foliosign-backup.json", "secrets.json", "pglite"], options: object = {}) => {
      const dir = fresh(`repack-${name}`);
      mkdirSync(dir);
      await tarExtract({ file: backupFile, cwd: dir });
      change(dir);
      const file = path.join(scratch, `${name}.tgz`);
      await tarCreate({ gzip: true, cwd: dir, file, portable: true, ...options }, entries);
      return file;
    };
    const editManifest = (edit: (m: { migration: { when: number; tag: string }; rows: Record<string, number> }) => void) => (dir: string) => {
      const file = path.join(dir, "foliosign-backup.json");
      const m = JSON.parse(readFileSync(file, "utf8"));
      edit(m);
      writeFileSync(file, JSON.stringify(m));
    };
    const outcome = async (file: string) => {
      const inst = installation(fresh("target"));
      const r = await admin(inst, "restore", "--from", file);
      expect(tree(inst.dataDir)).toEqual([]);
      return [r.code, r.err];
    };

    expect(
      await outcome(
        await repack(
          "newer",
          editManifest((m) => ((m.migration.when += 1), (m.migration.tag = "0099_future"))),
        ),
      ),
    ).toEqual([1, "Refused: The backup was made by a newer version of Foliosign (migration 0099_future): upgrade this installation first."]);
    expect(
      await outcome(
        await repack(
          "rows",
          editManifest((m) => (m.rows.organisations = 2)),
        ),
      ),
    ).toEqual([1, "Refused: The unpacked database does not match the backup's manifest (organisations): the file is damaged."]);
    expect(await outcome(await repack("no-manifest", () => {}, ["secrets.json", "pglite"]))).toEqual([
      1,
      "Refused: The file has no foliosign-backup.json: not a Foliosign backup.",
    ]);
    expect(await outcome(await repack("no-data", () => {}, ["foliosign-backup.json", "secrets.json"]))).toEqual([
      1,
      "Refused: The backup holds no database (pglite/): not a Foliosign backup.",
    ]);

    // A link inside, and a path climbing out of the folder it is unpacked in: refused, nothing written outside.
    const linked = await repack("link", (dir) => symlinkSync("/etc/passwd", path.join(dir, "pglite", "postgresql.conf.link")));
    const [linkCode, linkErr] = await outcome(linked);
    expect(linkCode).toBe(1);
    expect(linkErr).toContain("holds what a Foliosign backup does not (pglite/postgresql.conf.link)");
    const escapeName = `escaped-${n}`;
    const climbing = await repack(
      "climb",
      (dir) => {
        writeFileSync(path.join(dir, "..", escapeName), "outside");
        chmodSync(path.join(dir, "..", escapeName), 0o644);
      },
      ["foliosign-backup.json", "secrets.json", "pglite", `../${escapeName}`],
      { preservePaths: true },
    );
    rmSync(path.join(scratch, escapeName));
    const [climbCode, climbErr] = await outcome(climbing);
    expect(climbCode).toBe(1);
    expect(climbErr).toBe(`Refused: ${climbing} holds what a Foliosign backup does not (../${escapeName}): refused.`);
    expect(existsSync(path.join(scratch, escapeName))).toBe(false);
    expect(readdirSync(scratch).filter((f) => f.includes(".restoring-"))).toEqual([]);
  });
});
