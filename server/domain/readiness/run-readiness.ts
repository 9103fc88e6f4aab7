import type { Db } from "@/server/db/client";
import { createMailTransport } from "@/server/domain/mail/transport";
import { getSigningIdentity } from "@/server/domain/sealing/signing-identity";
import { resolveHost } from "@/server/domain/webhooks/delivery/resolver";
import { env } from "@/server/env";
import { now } from "@/server/lib/clock";
import { redactCredentials } from "@/server/lib/redact-url";
import { loadOrCreateSigningIdentity } from "@/server/pdf/load-or-create-signing-identity";
import { getFileStore } from "@/server/storage/get-file-store";
import { checkBackups } from "./check-backups";
import { checkDatabase } from "./check-database";
import { checkPublicUrl } from "./check-public-url";
import { checkSealingIdentity } from "./check-sealing-identity";
import { checkSmtp } from "./check-smtp";
import { checkStorage } from "./check-storage";
import { checkTimeStamping } from "./check-time-stamping";
import { checkWebhookEgress } from "./check-webhook-egress";
import { check, reason, type TCheckName, type TReadinessCheck, type TReadinessContext, type TReadinessReport, type TReadinessStatus } from "./types";

/** The process's configuration and services (or those of `overrides.env`); a test overrides what it needs. */
export function readinessContext(db: Db | null, overrides: Partial<TReadinessContext> = {}): TReadinessContext {
  const e = overrides.env ?? env();
  return {
    env: e,
    db,
    now,
    resolver: resolveHost,
    mailTransport: () => createMailTransport({ smtpUrl: e.SMTP_URL, from: e.MAIL_FROM }),
    fileStore: getFileStore,
    // The operator's PKCS#12 is read afresh (a file moved since start shows); the instance certificate is the
    // one the sealer holds. Without a database only the PKCS#12 is tried (the check says so before calling this).
    signingIdentity: () =>
      e.SIGNING_P12_PATH || !db
        ? loadOrCreateSigningIdentity(NO_STORE, { p12Path: e.SIGNING_P12_PATH, p12Password: e.SIGNING_P12_PASSWORD ?? "" })
        : getSigningIdentity(db),
    ...overrides,
  };
}

const NO_STORE = {
  read: async () => null,
  insertIfAbsent: async () => {
    throw new Error("no database to keep an instance certificate in");
  },
};

const RANK: Record<TReadinessStatus, number> = { ok: 0, warn: 1, fail: 2 };

/** Every value a report must never contain, however an error message came to quote it. */
function secretsOf(ctx: TReadinessContext): string[] {
  const e = ctx.env;
  const fromUrl = (value: string | undefined) => {
    if (!value || !URL.canParse(value)) return [];
    const url = new URL(value);
    return [url.password, decodeURIComponent(url.password)];
  };
  return [
    e.NEXTAUTH_SECRET,
    e.ENCRYPTION_KEY,
    e.METRICS_TOKEN,
    e.S3_SECRET_ACCESS_KEY,
    e.SIGNING_P12_PASSWORD,
    ...fromUrl(e.SMTP_URL),
    ...fromUrl(e.DATABASE_URL),
    ...e.TSA_URLS.flatMap(fromUrl),
  ].filter((s): s is string => typeof s === "string" && s.length >= 4);
}

/** Credentials in any URL replaced by ***, and any configured secret that slipped into a text replaced too. */
export function readinessRedactor(ctx: TReadinessContext): (text: string) => string {
  const secrets = secretsOf(ctx);
  return (text) => secrets.reduce((t, s) => t.split(s).join("***"), redactCredentials(text));
}

function redactCheck(c: TReadinessCheck, clean: (text: string) => string): TReadinessCheck {
  return {
    ...c,
    verdict: clean(c.verdict),
    action: c.action === null ? null : clean(c.action),
    facts: c.facts.map((f) => ({ label: clean(f.label), value: clean(f.value) })),
  };
}

/** Runs every check (they are independent; each catches its own failures) and returns the redacted report. */
export async function runReadiness(ctx: TReadinessContext): Promise<TReadinessReport> {
  const guarded = (name: TCheckName, title: string, run: () => TReadinessCheck | Promise<TReadinessCheck>) =>
    Promise.resolve()
      .then(run)
      .catch((err: unknown) =>
        check(name, title, "fail", `The check itself failed: ${reason(err)}.`, "Report this with the output of `npm run doctor -- --json`."),
      );
  const database = await guarded("database", "Database", () => checkDatabase(ctx));
  // What keeps its state in the database is not checked against one that is unreachable or not migrated.
  const after = database.status === "fail" ? { ...ctx, db: null } : ctx;
  const checks = await Promise.all([
    database,
    guarded("public-url", "Public URL", () => checkPublicUrl(after)),
    guarded("smtp", "Mail (SMTP)", () => checkSmtp(after)),
    guarded("sealing-identity", "Sealing identity", () => checkSealingIdentity(after)),
    guarded("time-stamping", "Time-stamping authority", () => checkTimeStamping(after)),
    guarded("storage", "File storage", () => checkStorage(after)),
    guarded("webhook-egress", "Webhook egress", () => checkWebhookEgress(after)),
    guarded("backups", "Backups", () => checkBackups(after)),
  ]);
  const clean = readinessRedactor(ctx);
  const status = checks.reduce<TReadinessStatus>((worst, c) => (RANK[c.status] > RANK[worst] ? c.status : worst), "ok");
  return { generatedAt: ctx.now().toISOString(), status, checks: checks.map((c) => redactCheck(c, clean)) };
}
