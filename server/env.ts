/**
 * The only reader of process.env. Every variable is declared here, validated with zod, and documented in
 * `.env.example`. Reading is lazy (first call to `env()`), so `next build` and tests can set variables first.
 */
import path from "node:path";
import { z } from "zod";
import { isIpOrCidr } from "./domain/organisation/ip-entry";

const bool = (fallback: boolean) =>
  z
    .enum(["true", "false", "1", "0", ""])
    .optional()
    .transform((v) => (v === undefined || v === "" ? fallback : v === "true" || v === "1"));

const ZEnv = z.object({
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
      (v) => v.split(",").map((s) => s.trim()).filter(Boolean).every(isIpOrCidr),
      "must be a comma-separated list of IP addresses or CIDR ranges (a typo would make every client look like the proxy)",
    ),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  API_BODY_LIMIT_BYTES: z.coerce.number().int().min(1024).default(1_048_576),
  RUN_WORKER: bool(true),
  WORKER_POLL_MS: z.coerce.number().int().min(50).default(1000),
  WEBHOOK_ALLOW_PRIVATE_TARGETS: bool(false),
  WEBHOOK_RETENTION_DAYS: z.coerce.number().int().min(1).default(30),
  METRICS_TOKEN: z.string().min(16, "must be at least 16 characters").optional(),
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
