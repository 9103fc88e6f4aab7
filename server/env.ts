/**
 * The only reader of process.env. Every variable is declared here, validated with zod, and documented in
 * `.env.example`. Reading is lazy (first call to `env()`), so `next build` and tests can set variables first.
 */
import path from "node:path";
import { z } from "zod";
import { isIpOrCidr } from "@/common/ip-entry";

const bool = (fallback: boolean) =>
  z
    .enum(["true", "false", "1", "0", ""])
    .optional()
    .transform((v) => (v === undefined || v === "" ? fallback : v === "true" || v === "1"));

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === "http:" || url.protocol === "https:") && url.hostname !== "";
  } catch {
    return false;
  }
}

const ZEnv = z
  .object({
    NODE_ENV: z.enum(["development", "production", "test"]).default("production"),
    PORT: z.coerce.number().int().min(1).max(65535).default(3000),
    HOST: z.string().min(1).default("0.0.0.0"),
    /** Public origin of the app, used by next-auth and as the OpenAPI server. */
    PUBLIC_URL: z.url().optional(),
    DATABASE_URL: z
      .string()
      .regex(/^postgres(ql)?:\/\//, "must be a postgres:// or postgresql:// URL")
      .optional()
      .or(z.literal("").transform(() => undefined)),
    DATA_DIR: z.string().min(1).default("./.data"),
    PGLITE_DIR: z.string().min(1).optional(),
    NEXTAUTH_SECRET: z.string().min(32, "must be at least 32 characters").optional(),
    ENCRYPTION_KEY: z
      .string()
      .regex(/^[0-9a-f]{64}$/i, "must be 64 hex characters (32 bytes)")
      .optional(),
    TRUSTED_PROXIES: z
      .string()
      .default("")
      .refine(
        (v) =>
          v
            .split(",")
            .map((s) => s.trim())
            .filter(Boolean)
            .every(isIpOrCidr),
        "must be a comma-separated list of IP addresses or CIDR ranges (a typo would make every client look like the proxy)",
      ),
    LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
    API_BODY_LIMIT_BYTES: z.coerce.number().int().min(1024).default(1_048_576),
    RUN_WORKER: bool(true),
    WORKER_POLL_MS: z.coerce.number().int().min(50).default(1000),
    WEBHOOK_ALLOW_PRIVATE_TARGETS: bool(false),
    WEBHOOK_RETENTION_DAYS: z.coerce.number().int().min(1).default(30),
    /** Scheduled backups of the embedded database, made while it runs (README, Backups); unset: none. */
    BACKUP_DIR: z.string().min(1).optional(),
    BACKUP_EVERY_HOURS: z.coerce.number().int().min(1).max(8760).default(24),
    BACKUP_KEEP: z.coerce.number().int().min(1).max(1000).default(7),
    /** The host name the readiness check (npm run doctor, Settings → Readiness) resolves to judge webhook egress; only looked up. */
    READINESS_DNS_PROBE_HOST: z
      .string()
      .regex(/^[A-Za-z0-9.-]+$/, "must be a host name")
      .default("example.com"),
    METRICS_TOKEN: z.string().min(16, "must be at least 16 characters").optional(),
    /** The largest document accepted (declared `fileSize` at add time, and the bytes of the upload). 25 MB. */
    MAX_DOCUMENT_BYTES: z.coerce.number().int().min(1024).max(2_147_483_647).default(26_214_400),
    /** Upload inspection runs in a child process (server/documents-io/inspect-in-child.ts): its time limit, */
    INSPECT_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(30_000),
    /** its V8 heap cap (--max-old-space-size, MB), */
    INSPECT_MAX_HEAP_MB: z.coerce.number().int().min(32).max(8192).default(512),
    /** and how many run at once per process (the rest wait). */
    INSPECT_CONCURRENCY: z.coerce.number().int().min(1).max(16).default(2),
    /** DOCX → PDF conversion (server/documents-io/convert-docx.ts). */
    SOFFICE_PATH: z.string().min(1).default("soffice"),
    CONVERT_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(60_000),
    /** The largest merged sealed PDF `GET /packages/{id}/download` streams (413 beyond it; the zip has no cap). 100 MB. */
    MAX_MERGED_DOWNLOAD_BYTES: z.coerce.number().int().min(1024).default(104_857_600),
    /** The largest PDF the public /verify page accepts. 100 MB. */
    MAX_VERIFY_BYTES: z.coerce.number().int().min(1024).default(104_857_600),
    /** Checks per 60-second window per client address on the public /verify upload (429 beyond). */
    VERIFY_RATE_LIMIT: z.coerce.number().int().min(1).default(10),
    CONVERT_CONCURRENCY: z.coerce.number().int().min(1).max(16).default(1),
    /** auto: run LibreOffice in a network namespace of its own when the kernel allows (`unshare`); off: never. */
    CONVERT_NETWORK_SANDBOX: z.enum(["auto", "off"]).default("auto"),
    /** When set, DOCX → PDF is posted to this Gotenberg instead of running the local soffice. */
    GOTENBERG_URL: z.url().optional(),
    /** Where uploaded files are kept: chunked in the database (default) or an S3-compatible bucket. */
    STORAGE: z.enum(["database", "s3"]).default("database"),
    S3_ENDPOINT: z.url({ protocol: /^https?$/, error: "must be an http:// or https:// URL" }).optional(),
    S3_BUCKET: z.string().min(3).max(63).optional(),
    S3_REGION: z.string().min(1).default("us-east-1"),
    S3_ACCESS_KEY_ID: z.string().min(1).optional(),
    S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
    S3_FORCE_PATH_STYLE: bool(false),
    /** The stored-file sweep (server/domain/file-sweep/) leaves alone anything younger: uploads and seals in flight. */
    STORAGE_SWEEP_GRACE_HOURS: z.coerce
      .number()
      .int()
      .min(1)
      .max(24 * 365)
      .default(24),
    /** The operator's PKCS#12 (.p12/.pfx) for sealing; unset → an instance certificate generated on first start. */
    SIGNING_P12_PATH: z.string().min(1).optional(),
    SIGNING_P12_PASSWORD: z.string().optional(),
    /**
     * RFC 3161 time-stamping authorities for the seals (issue 20), comma-separated, tried in order; user:password
     * in a URL is sent as basic auth and never logged. Unset → seals stay PAdES B-B (this server's clock only).
     * Loopback and private addresses are allowed: an in-house TSA is the operator's choice.
     */
    TSA_URLS: z
      .string()
      .default("")
      .transform((v) =>
        v
          .split(",")
          .map((s) => s.trim())
          .filter(Boolean),
      )
      .refine((urls) => urls.every(isHttpUrl), "must be a comma-separated list of http:// or https:// URLs"),
    /** How long one TSA (and each revocation fetch) may take before the next is tried. */
    TSA_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(10_000),
    /** Renewal adds a new document time-stamp this many days before the newest one's TSA certificate expires. */
    EVIDENCE_RENEWAL_DAYS: z.coerce.number().int().min(1).max(3650).default(180),
    /** A folder searched first for the sealing fonts (the Debian Noto packages' file names). */
    SEALING_FONT_DIR: z.string().min(1).optional(),
    /** When set, mail is sent through this SMTP server (smtp:// or smtps://, credentials in the URL); unset → the outbox. */
    SMTP_URL: z
      .string()
      .regex(/^smtps?:\/\/[^\s]+$/, "must be an smtp:// or smtps:// URL, e.g. smtp://user:password@mail.example.com:587")
      .optional(),
    /** The From of every message: an address, or `Name <address>`. */
    MAIL_FROM: z.string().min(3).default("Foliosign <no-reply@localhost>"),
  })
  .superRefine((e, ctx) => {
    // S3 settings are checked at start, not at the first upload, so a typo fails fast.
    if (e.STORAGE === "s3" && !e.S3_BUCKET) {
      ctx.addIssue({ code: "custom", path: ["S3_BUCKET"], message: "is required when STORAGE=s3" });
    }
    if (Boolean(e.S3_ACCESS_KEY_ID) !== Boolean(e.S3_SECRET_ACCESS_KEY)) {
      ctx.addIssue({
        code: "custom",
        path: [e.S3_ACCESS_KEY_ID ? "S3_SECRET_ACCESS_KEY" : "S3_ACCESS_KEY_ID"],
        message: "S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY are set together or not at all",
      });
    }
  });

export type TEnv = z.infer<typeof ZEnv> & { pgliteDir: string; publicUrl: string };

let cached: TEnv | undefined;

export class EnvError extends Error {
  override name = "EnvError";
}

export function parseEnv(source: Record<string, string | undefined>): TEnv {
  // An empty value (`PUBLIC_URL=` as in .env.example) means "use the default", never "invalid".
  const given = Object.fromEntries(Object.entries(source).filter(([, v]) => v !== undefined && v.trim() !== ""));
  const result = ZEnv.safeParse(given);
  if (!result.success) {
    const lines = result.error.issues.map((i) => `  ${i.path.join(".") || "(env)"}: ${i.message}`);
    throw new EnvError(`Invalid configuration:\n${lines.join("\n")}\nSee .env.example for every variable.`);
  }
  const e = result.data;
  return {
    ...e,
    pgliteDir: path.resolve(/*turbopackIgnore: true*/ e.PGLITE_DIR ?? path.join(e.DATA_DIR, "pglite")),
    publicUrl: (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/$/, ""),
  };
}

export function env(): TEnv {
  cached ??= parseEnv(process.env);
  return cached;
}

/** Tests and the start script change process.env and then call this. */
export function resetEnvCache(): void {
  cached = undefined;
}
