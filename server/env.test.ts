/** Configuration fails fast with a message naming each bad variable, and fills in the documented defaults. */
import { mkdtempSync, readFileSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseEnv as parseDotenv } from "node:util";
import { afterEach, describe, expect, it } from "vitest";
import { EnvError, parseEnv } from "./env";
import { ensureSecrets } from "./secrets";

describe("parseEnv", () => {
  it("applies the defaults of .env.example", () => {
    const e = parseEnv({});
    expect(e).toMatchObject({ PORT: 3000, DATA_DIR: "./.data", RUN_WORKER: true, WEBHOOK_ALLOW_PRIVATE_TARGETS: false });
    expect(e.DATABASE_URL).toBeUndefined();
    expect(e.pgliteDir).toBe(path.resolve(".data/pglite"));
    expect(e.publicUrl).toBe("http://localhost:3000");
  });

  it("accepts .env.example copied as it is: an empty value means the default", () => {
    const example = parseDotenv(readFileSync(path.resolve(".env.example"), "utf8"));
    expect(example.METRICS_TOKEN).toBe("");
    const e = parseEnv(example);
    expect(e).toMatchObject({ PORT: 3000, LOG_LEVEL: "info", WEBHOOK_RETENTION_DAYS: 30 });
    expect(e.METRICS_TOKEN).toBeUndefined();
    expect(e.publicUrl).toBe("http://localhost:3000");
  });

  it("names every invalid variable in one readable message", () => {
    let message = "";
    try {
      parseEnv({ PORT: "eighty", DATABASE_URL: "mysql://x", ENCRYPTION_KEY: "short", TRUSTED_PROXIES: "10.0.0.1, lb.internal" });
    } catch (err) {
      expect(err).toBeInstanceOf(EnvError);
      message = (err as Error).message;
    }
    expect(message).toContain("PORT");
    expect(message).toContain("DATABASE_URL: must be a postgres:// or postgresql:// URL");
    expect(message).toContain("ENCRYPTION_KEY: must be 64 hex characters (32 bytes)");
    expect(message).toContain("TRUSTED_PROXIES: must be a comma-separated list of IP addresses or CIDR ranges");
    expect(message).toContain(".env.example");
    expect(parseEnv({ TRUSTED_PROXIES: "10.0.0.1, 192.168.0.0/16,::1" }).TRUSTED_PROXIES).toContain("192.168.0.0/16");
  });

  it("keeps files in the database unless STORAGE=s3, and then requires a bucket and paired keys", () => {
    expect(parseEnv({})).toMatchObject({ STORAGE: "database", S3_REGION: "us-east-1", S3_FORCE_PATH_STYLE: false });
    expect(() => parseEnv({ STORAGE: "s3" })).toThrow("S3_BUCKET: is required when STORAGE=s3");
    expect(() => parseEnv({ STORAGE: "s3", S3_BUCKET: "files", S3_ACCESS_KEY_ID: "id" })).toThrow(
      "S3_SECRET_ACCESS_KEY: S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY are set together or not at all",
    );
    expect(() => parseEnv({ STORAGE: "disk" })).toThrow("STORAGE");
    expect(() => parseEnv({ STORAGE: "s3", S3_BUCKET: "files", S3_ENDPOINT: "minio:9000" })).toThrow("S3_ENDPOINT");
    const e = parseEnv({
      STORAGE: "s3",
      S3_BUCKET: "files",
      S3_ENDPOINT: "http://127.0.0.1:9000",
      S3_FORCE_PATH_STYLE: "true",
    });
    expect(e).toMatchObject({ STORAGE: "s3", S3_BUCKET: "files", S3_FORCE_PATH_STYLE: true });
  });
});

describe("ensureSecrets", () => {
  const saved = { a: process.env.NEXTAUTH_SECRET, b: process.env.ENCRYPTION_KEY };
  afterEach(() => {
    process.env.NEXTAUTH_SECRET = saved.a;
    process.env.ENCRYPTION_KEY = saved.b;
  });

  it("generates both secrets once into the data directory (0600) and reuses them", () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "fs-secrets-"));
    delete process.env.NEXTAUTH_SECRET;
    delete process.env.ENCRYPTION_KEY;
    expect(ensureSecrets(dir).generated).toBe(true);
    const first = { a: process.env.NEXTAUTH_SECRET, b: process.env.ENCRYPTION_KEY };
    expect(first.b).toMatch(/^[0-9a-f]{64}$/);
    expect(statSync(path.join(dir, "secrets.json")).mode & 0o777).toBe(0o600);
    delete process.env.NEXTAUTH_SECRET;
    delete process.env.ENCRYPTION_KEY;
    expect(ensureSecrets(dir).generated).toBe(false);
    expect({ a: process.env.NEXTAUTH_SECRET, b: process.env.ENCRYPTION_KEY }).toEqual(first);
    expect(JSON.parse(readFileSync(path.join(dir, "secrets.json"), "utf8")).ENCRYPTION_KEY).toBe(first.b);
  });
});
