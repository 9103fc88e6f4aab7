/**
 * The readiness check, one misconfiguration per verdict, on a real database (PGlite, or PostgreSQL with
 * DATABASE_URL), a real SMTP server on 127.0.0.1 (with and without AUTH), real PKCS#12 files (openssl) and a
 * real S3 server (s3rver) on loopback. DNS is always the injected lookup: no test resolves a real name.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openPglite, openPostgres } from "@/server/db/client";
import { backups, webhookEndpoints } from "@/server/db/schema";
import { startSmtpSink, type TSmtpSink } from "@/server/domain/mail/test-support/smtp-sink";
import { resetSigningIdentity } from "@/server/domain/sealing/signing-identity";
import type { TResolver } from "@/server/domain/webhooks/delivery/resolver";
import { parseEnv } from "@/server/env";
import { MIGRATIONS_DIR } from "@/server/db/migrate";
import { createS3FileStore } from "@/server/storage/create-s3-file-store";
import { newId } from "@/server/lib/ids";
import { createTestOrg } from "@/server/test/factories";
import { useTestDb } from "@/server/test/db";
import { startS3Server, type TTestS3Server } from "@/server/test/s3-server";
import { runDoctor } from "@/server/cli/run-doctor";
import { checkDatabase } from "./check-database";
import { checkPublicUrl } from "./check-public-url";
import { checkSealingIdentity } from "./check-sealing-identity";
import { checkSmtp, sendReadinessTestMessage } from "./check-smtp";
import { checkStorage } from "./check-storage";
import { checkWebhookEgress } from "./check-webhook-egress";
import { checkBackups } from "./check-backups";
import { readinessContext, runReadiness } from "./run-readiness";
import type { TReadinessContext } from "./types";

const t = useTestDb();
const dir = mkdtempSync(path.join(tmpdir(), "foliosign-readiness-"));
const DAY = 86_400_000;
const BASE = {
  NEXTAUTH_SECRET: "n".repeat(40),
  ENCRYPTION_KEY: "ab".repeat(32),
  PUBLIC_URL: "https://sign.example.com",
  MAIL_FROM: "Foliosign <signing@example.com>",
};
const lookedUp: string[] = [];
const publicDns: TResolver = async (host) => {
  lookedUp.push(host);
  return [{ address: "93.184.215.14", family: 4 }];
};

function ctx(vars: Record<string, string> = {}, overrides: Partial<TReadinessContext> = {}): TReadinessContext {
  return readinessContext(t.db, { env: parseEnv({ ...BASE, ...vars }), now: () => new Date(), resolver: publicDns, ...overrides });
}

/** A PKCS#12 made by openssl: an RSA key and a self-signed certificate valid for `days`. */
function makeP12(name: string, days: number, password: string): string {
  const [key, cert, p12] = ["key.pem", "cert.pem", "p12"].map((ext) => path.join(dir, `${name}.${ext}`));
  execFileSync(
    "openssl",
    ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key!, "-out", cert!, "-days", String(days), "-subj", `/CN=${name}/O=ACME`],
    {
      stdio: "ignore",
    },
  );
  execFileSync("openssl", ["pkcs12", "-export", "-inkey", key!, "-in", cert!, "-out", p12!, "-passout", `pass:${password}`], { stdio: "ignore" });
  return p12!;
}

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("database", () => {
  it("ok when it answers and every shipped migration is applied", async () => {
    const c = await checkDatabase(ctx());
    expect(c.status).toBe("ok");
    expect(c.facts.find((f) => f.label === "Migrations")?.value).toMatch(/^(\d+) of \1 applied$/);
  });

  it("fails when a shipped migration is not applied yet, naming it", async () => {
    const journal = JSON.parse(readFileSync(path.join(MIGRATIONS_DIR, "meta", "_journal.json"), "utf8")) as { entries: { tag: string; when: number }[] };
    journal.entries.push({ tag: "9999_from_the_future", when: Date.now() + 365 * DAY });
    const migrations = path.join(dir, "drizzle");
    mkdirSync(path.join(migrations, "meta"), { recursive: true });
    writeFileSync(path.join(migrations, "meta", "_journal.json"), JSON.stringify(journal));
    const c = await checkDatabase(ctx(), migrations);
    expect(c.status).toBe("fail");
    expect(c.verdict).toBe("The database is reachable but 1 migration(s) are not applied (next: 9999_from_the_future).");
    expect(c.action).toMatch(/npm start/);
  });

  it("fails on a database nobody migrated (a fresh PGlite), and checks nothing that lives in it", async () => {
    const fresh = await openPglite();
    try {
      const report = await runReadiness(readinessContext(fresh.db, { env: parseEnv(BASE), resolver: publicDns }));
      const c = report.checks.find((x) => x.name === "database")!;
      expect(c.status).toBe("fail");
      expect(c.verdict).toMatch(/^The database is reachable but not migrated: none of the \d+ migrations is applied\.$/);
      expect(report.checks.find((x) => x.name === "sealing-identity")?.verdict).toBe(
        "Not checked: the instance certificate is kept in the database, which is not ready (see Database).",
      );
    } finally {
      await fresh.close();
    }
  });

  it("fails when it cannot be reached, without the password in the report", async () => {
    const handle = await openPostgres("postgres://doctor:hunter2secret@127.0.0.1:1/nowhere", { max: 1 });
    try {
      const report = await runReadiness(
        readinessContext(handle.db, { env: parseEnv({ ...BASE, DATABASE_URL: "postgres://doctor:hunter2secret@127.0.0.1:1/nowhere" }), resolver: publicDns }),
      );
      const c = report.checks.find((x) => x.name === "database")!;
      expect(c.status).toBe("fail");
      expect(c.verdict).toMatch(/^The database does not answer: /);
      expect(c.action).toMatch(/DATABASE_URL/);
      expect(report.status).toBe("fail");
      // What lives in the database is not checked against it.
      expect(report.checks.find((x) => x.name === "storage")?.verdict).toBe("Not checked: files are kept in the database, which is not ready (see Database).");
      expect(JSON.stringify(report)).not.toContain("hunter2secret");
    } finally {
      await handle.close();
    }
  });
});

describe("public URL", () => {
  it("fails when PUBLIC_URL is unset, showing what links will look like", () => {
    const c = checkPublicUrl(ctx({ PUBLIC_URL: "" }));
    expect(c.status).toBe("fail");
    expect(c.facts).toEqual([
      { label: "PUBLIC_URL", value: "not set (using http://localhost:3000)" },
      { label: "Signing links look like", value: "http://localhost:3000/sign/<token>" },
    ]);
  });

  it("warns on a loopback host and on plain http; ok on https", () => {
    expect(checkPublicUrl(ctx({ PUBLIC_URL: "http://127.0.0.1:3000" })).status).toBe("warn");
    const http = checkPublicUrl(ctx({ PUBLIC_URL: "http://sign.example.com" }));
    expect([http.status, http.verdict]).toEqual(["warn", "PUBLIC_URL is plain http: signing links, sign-in cookies and signatures travel unencrypted."]);
    const ok = checkPublicUrl(ctx());
    expect([ok.status, ok.verdict, ok.facts[1]?.value]).toEqual([
      "ok",
      "Signing links point at https://sign.example.com.",
      "https://sign.example.com/sign/<token>",
    ]);
  });
});

describe("SMTP", () => {
  let open: TSmtpSink;
  let locked: TSmtpSink;
  beforeAll(async () => {
    open = await startSmtpSink();
    locked = await startSmtpSink({ auth: { user: "foliosign", pass: "right-pass" } });
  });
  afterAll(async () => {
    await open.close();
    await locked.close();
  });

  it("warns 'outbox only' without SMTP_URL", async () => {
    const c = await checkSmtp(ctx());
    expect([c.status, c.verdict.startsWith("Outbox only:")]).toEqual(["warn", true]);
  });

  it("ok when the server accepts the connection and the login; sends nothing until asked", async () => {
    const withAuth = locked.url.replace("smtp://", "smtp://foliosign:right-pass@");
    const c = await checkSmtp(ctx({ SMTP_URL: withAuth }));
    expect(c.status).toBe("ok");
    expect(c.facts[0]).toEqual({ label: "SMTP_URL", value: locked.url.replace("smtp://", "smtp://***@") });
    expect(locked.received).toHaveLength(0);
    const sent = await sendReadinessTestMessage(ctx({ SMTP_URL: withAuth }), "operator@example.com");
    expect(sent.status).toBe("ok");
    expect(locked.received.map((m) => [m.to, m.subject])).toEqual([[["operator@example.com"], "Foliosign test message"]]);
  });

  it("fails when the server refuses the login, without the password in the report", async () => {
    const report = await runReadiness(ctx({ SMTP_URL: locked.url.replace("smtp://", "smtp://foliosign:wrong-pass-123@") }));
    const c = report.checks.find((x) => x.name === "smtp")!;
    expect(c.status).toBe("fail");
    expect(c.verdict).toMatch(/^The SMTP server refused the login: .*535/);
    expect(c.action).toMatch(/user name and password in SMTP_URL/);
    expect(JSON.stringify(report)).not.toContain("wrong-pass-123");
  });

  it("fails when nothing listens at SMTP_URL", async () => {
    const c = await checkSmtp(ctx({ SMTP_URL: "smtp://127.0.0.1:1" }));
    expect(c.status).toBe("fail");
    expect(c.verdict).toMatch(/^Cannot talk to the SMTP server: .*ECONNREFUSED/);
  });

  it("warns when MAIL_FROM is an address at localhost", async () => {
    const c = await checkSmtp(ctx({ SMTP_URL: open.url, MAIL_FROM: "Foliosign <no-reply@localhost>" }));
    expect(c.status).toBe("warn");
    expect(c.action).toMatch(/^Set MAIL_FROM/);
  });
});

describe("sealing identity", () => {
  it("ok with the instance certificate: subject, key type and expiry", async () => {
    resetSigningIdentity();
    const c = await checkSealingIdentity(ctx());
    expect(c.status).toBe("ok");
    expect(c.facts.find((f) => f.label === "Key type")?.value).toBe("EC P-256");
    expect(c.facts.find((f) => f.label === "Subject")?.value).toMatch(/^CN=Foliosign seal – /);
    resetSigningIdentity();
  });

  it("warns 30 days before the operator's certificate expires, fails once it has", async () => {
    const p12 = makeP12("Expiring Seal", 10, "p12-pass-xyz");
    const vars = { SIGNING_P12_PATH: p12, SIGNING_P12_PASSWORD: "p12-pass-xyz" };
    const soon = await checkSealingIdentity(ctx(vars));
    expect(soon.status).toBe("warn");
    expect(soon.verdict).toMatch(/^The sealing certificate expires in (9|10) day\(s\)/);
    expect(soon.facts.find((f) => f.label === "Key type")?.value).toBe("RSA 2048");
    expect(soon.facts.find((f) => f.label === "Subject")?.value).toBe("CN=Expiring Seal, O=ACME");
    const later = await checkSealingIdentity(ctx(vars, { now: () => new Date(Date.now() + 11 * DAY) }));
    expect(later.status).toBe("fail");
    expect(later.verdict).toMatch(/^The sealing certificate expired on /);
  });

  it("fails on a wrong SIGNING_P12_PASSWORD (not in the report) and on a missing file", async () => {
    const p12 = makeP12("Operator Seal", 400, "right-p12-pass");
    const report = await runReadiness(ctx({ SIGNING_P12_PATH: p12, SIGNING_P12_PASSWORD: "wrong-p12-pass" }));
    const c = report.checks.find((x) => x.name === "sealing-identity")!;
    expect(c.status).toBe("fail");
    expect(c.action).toMatch(/SIGNING_P12_PASSWORD opens it/);
    expect(JSON.stringify(report)).not.toContain("wrong-p12-pass");
    const missing = await checkSealingIdentity(ctx({ SIGNING_P12_PATH: path.join(dir, "absent.p12") }));
    expect(missing.status).toBe("fail");
    expect(missing.verdict).toMatch(/cannot read .*absent\.p12 \(ENOENT\)/);
  });
});

describe("storage", () => {
  let s3: TTestS3Server;
  beforeAll(async () => {
    s3 = await startS3Server();
  });
  afterAll(() => s3.stop());

  it("ok on the database store: a probe written, read back and deleted (nothing left)", async () => {
    const c = await checkStorage(ctx());
    expect([c.status, c.verdict]).toEqual(["ok", "A probe file was written, read back intact and deleted."]);
    const store = await ctx().fileStore();
    expect((await store.list("readiness/", new Date(Date.now() + DAY))).files).toEqual([]);
  });

  it("ok on S3; fails on a bucket that does not exist and on an endpoint nothing answers", async () => {
    const vars = { STORAGE: "s3", S3_BUCKET: s3.config.bucket, S3_ENDPOINT: s3.config.endpoint!, S3_FORCE_PATH_STYLE: "true" };
    expect((await checkStorage(ctx(vars, { fileStore: async () => createS3FileStore(s3.config) }))).status).toBe("ok");
    const noBucket = await checkStorage(ctx(vars, { fileStore: async () => createS3FileStore({ ...s3.config, bucket: "no-such-bucket" }) }));
    expect(noBucket.status).toBe("fail");
    expect(noBucket.verdict).toMatch(/^A probe file could not be stored \(write\): .*NoSuchBucket|bucket/i);
    const down = await checkStorage(ctx(vars, { fileStore: async () => createS3FileStore({ ...s3.config, endpoint: "http://127.0.0.1:1" }) }));
    expect(down.status).toBe("fail");
    expect(down.action).toMatch(/S3_ENDPOINT/);
  });
});

describe("webhook egress", () => {
  it("ok when names resolve to public addresses and the private-address rule is on", async () => {
    lookedUp.length = 0;
    const c = await checkWebhookEgress(ctx());
    expect(c.status).toBe("ok");
    expect(lookedUp).toEqual(["example.com"]);
    lookedUp.length = 0;
    await checkWebhookEgress(ctx({ READINESS_DNS_PROBE_HOST: "resolver-check.example.com" }));
    expect(lookedUp).toEqual(["resolver-check.example.com"]);
  });

  it("DNS that fails: a warning with no endpoint, a failure once an endpoint is enabled", async () => {
    const broken: TResolver = async () => {
      throw Object.assign(new Error("getaddrinfo EAI_AGAIN example.com"), { code: "EAI_AGAIN" });
    };
    expect((await checkWebhookEgress(ctx({}, { resolver: broken }))).status).toBe("warn");
    const org = await createTestOrg(t.db);
    await t.db.insert(webhookEndpoints).values({
      id: newId("whep"),
      organisationId: org.organisationId,
      workspaceId: org.workspaceId,
      url: "https://hooks.example.com/x",
      events: [],
      secretEncrypted: "x",
    });
    const c = await checkWebhookEgress(ctx({}, { resolver: broken }));
    expect(c.status).toBe("fail");
    expect(c.facts).toContainEqual({ label: "Enabled endpoints", value: "1" });
  });

  it("warns when a public name resolves to a private address, and when the rule is switched off", async () => {
    const rewriting: TResolver = async () => [{ address: "10.1.2.3", family: 4 }];
    expect((await checkWebhookEgress(ctx({}, { resolver: rewriting }))).status).toBe("warn");
    const off = await checkWebhookEgress(ctx({ WEBHOOK_ALLOW_PRIVATE_TARGETS: "true" }));
    expect(off.status).toBe("warn");
    expect(off.action).toBe("Development only: unset WEBHOOK_ALLOW_PRIVATE_TARGETS in production.");
  });
});

describe("backups", () => {
  const DAY = 24 * 3_600_000;
  const at = new Date("2030-05-10T12:00:00.000Z");
  const note = (daysAgo: number, withSecrets = true) =>
    t.db.insert(backups).values({ madeAt: new Date(at.getTime() - daysAgo * DAY), file: `foliosign-${daysAgo}.tgz`, bytes: 12_345_678, withSecrets });

  it("warns when the embedded database was never backed up, saying how", async () => {
    const c = await checkBackups(ctx({}, { now: () => at }));
    expect(c).toMatchObject({ status: "warn", verdict: "No backup of this installation has been made." });
    expect(c.action).toBe(
      "Set BACKUP_DIR for backups the server makes while it runs, or stop it and run `npm run admin -- backup --out FILE` (README, Backups); keep the files on another machine.",
    );
  });

  it("with scheduled backups on, shows the schedule, and when none is recent says where to look", async () => {
    const vars = { BACKUP_DIR: "/srv/backups", BACKUP_EVERY_HOURS: "6", BACKUP_KEEP: "28" };
    const none = await checkBackups(ctx(vars, { now: () => at }));
    expect(none).toMatchObject({ status: "warn", verdict: "No backup of this installation has been made." });
    expect(none.facts).toEqual([
      { label: "Database", value: "embedded (PGlite)" },
      { label: "Scheduled", value: "every 6 hours into /srv/backups, the newest 28 kept" },
    ]);
    expect(none.action).toBe(
      "Scheduled backups are on (every 6 hours into /srv/backups, the newest 28 kept) and none is recent: the server's log says why (`scheduled backup failed`); they need the worker (RUN_WORKER). Copy /srv/backups to another machine.",
    );
    await note(0.25);
    const made = await checkBackups(ctx(vars, { now: () => at }));
    expect(made).toMatchObject({ status: "ok", verdict: "The last backup was made today.", action: null });
    expect(made.facts.at(-1)).toEqual({ label: "Scheduled", value: "every 6 hours into /srv/backups, the newest 28 kept" });
  });

  it("ok with a backup of the last week (the newest is shown), a warning once it is older", async () => {
    await note(30);
    await note(2, false);
    const c = await checkBackups(ctx({}, { now: () => at }));
    expect(c).toMatchObject({ status: "ok", verdict: "The last backup was made 2 days ago.", action: null });
    expect(c.facts).toEqual([
      { label: "Last backup", value: "2030-05-08T12:00:00.000Z (2 days ago)" },
      { label: "File", value: "foliosign-2.tgz" },
      { label: "Size", value: "12.3 MB" },
      { label: "Secrets", value: "not in the file: keep ENCRYPTION_KEY yourself" },
    ]);
    const later = await checkBackups(ctx({ STORAGE: "s3", S3_BUCKET: "files" }, { now: () => new Date(at.getTime() + 6 * DAY) }));
    expect(later).toMatchObject({ status: "warn", verdict: "The last backup is 8 days old: what changed since would be lost with this machine." });
    expect(later.action).toMatch(/, and back up the S3 bucket's files \(versioning or replication\): they are not in the files\.$/);
  });

  it("on PostgreSQL says what Foliosign cannot see and what to keep", async () => {
    const c = await checkBackups(ctx({ DATABASE_URL: "postgres://foliosign@db.internal:5432/foliosign" }));
    expect(c.status).toBe("ok");
    expect(c.verdict).toMatch(/^PostgreSQL is backed up with its own tools/);
    expect(c.action).toMatch(/^Keep ENCRYPTION_KEY and NEXTAUTH_SECRET with the database's backups: /);
  });
});

describe("npm run doctor", () => {
  it("prints the JSON report and exits 1 when a check fails, 0 otherwise; --send-test-to must be an address", async () => {
    const lines: string[] = [];
    const failing = await runDoctor(t.db, undefined, { json: true }, (l) => lines.push(l), { env: parseEnv({ ...BASE, PUBLIC_URL: "" }), resolver: publicDns });
    expect(failing).toBe(1);
    const report = JSON.parse(lines.join("\n")) as { status: string; checks: { name: string; status: string; action: string | null }[] };
    expect(report.status).toBe("fail");
    expect(report.checks.map((c) => c.name)).toEqual([
      "database",
      "public-url",
      "smtp",
      "sealing-identity",
      "time-stamping",
      "storage",
      "webhook-egress",
      "backups",
    ]);
    expect(report.checks.find((c) => c.name === "public-url")).toMatchObject({ status: "fail", action: expect.stringMatching(/^Set PUBLIC_URL/) });
    resetSigningIdentity();
    const passing = await runDoctor(t.db, undefined, { json: false }, () => {}, { env: parseEnv(BASE), resolver: publicDns });
    expect(passing).toBe(0);
    expect(await runDoctor(t.db, undefined, { json: false, sendTestTo: "not-an-address" }, () => {})).toBe(2);
  });
});
