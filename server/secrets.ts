/**
 * A fresh install configures nothing: the first start generates NEXTAUTH_SECRET and ENCRYPTION_KEY into
 * `DATA_DIR/secrets.json` (mode 0600) and reuses them afterwards. Values set in the environment win.
 * When running several processes (PostgreSQL + workers), set both in the environment of every process.
 */
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

type TStored = { NEXTAUTH_SECRET: string; ENCRYPTION_KEY: string };

export function ensureSecrets(dataDir: string): { generated: boolean } {
  if (process.env.NEXTAUTH_SECRET && process.env.ENCRYPTION_KEY) return { generated: false };
  const file = path.resolve(dataDir, "secrets.json");
  let stored: Partial<TStored> = {};
  if (existsSync(file)) stored = JSON.parse(readFileSync(file, "utf8")) as Partial<TStored>;
  let generated = false;
  if (!stored.NEXTAUTH_SECRET) {
    stored.NEXTAUTH_SECRET = randomBytes(32).toString("base64url");
    generated = true;
  }
  if (!stored.ENCRYPTION_KEY) {
    stored.ENCRYPTION_KEY = randomBytes(32).toString("hex");
    generated = true;
  }
  if (generated) {
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, JSON.stringify(stored, null, 2), { mode: 0o600 });
  }
  process.env.NEXTAUTH_SECRET ||= stored.NEXTAUTH_SECRET;
  process.env.ENCRYPTION_KEY ||= stored.ENCRYPTION_KEY;
  return { generated };
}
