import { createCipheriv, createDecipheriv, createHash, createHmac, randomBytes, scrypt, timingSafeEqual } from "node:crypto";
import { promisify } from "node:util";
import { env } from "@/server/env";

const scryptAsync = promisify(scrypt) as (pw: string, salt: Buffer, len: number, opts: object) => Promise<Buffer>;
const SCRYPT = { N: 16384, r: 8, p: 1, maxmem: 64 * 1024 * 1024 };

/** A secret token for a link, a cookie or a key: 256 random bits, base64url (43 characters). */
export function randomToken(): string {
  return randomBytes(32).toString("base64url");
}

export function sha256Hex(value: string): string {
  return createHash("sha256").update(value, "utf8").digest("hex");
}

/** `scrypt$N$r$p$salt$hash`, all base64url. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const hash = await scryptAsync(password.normalize("NFKC"), salt, 32, SCRYPT);
  return `scrypt$${SCRYPT.N}$${SCRYPT.r}$${SCRYPT.p}$${salt.toString("base64url")}$${hash.toString("base64url")}`;
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [alg, n, r, p, salt, hash] = stored.split("$");
  if (alg !== "scrypt" || !n || !r || !p || !salt || !hash) return false;
  const expected = Buffer.from(hash, "base64url");
  const actual = await scryptAsync(password.normalize("NFKC"), Buffer.from(salt, "base64url"), expected.length, {
    N: Number(n),
    r: Number(r),
    p: Number(p),
    maxmem: SCRYPT.maxmem,
  });
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

function encryptionKey(): Buffer {
  const hex = env().ENCRYPTION_KEY;
  if (!hex) throw new Error("ENCRYPTION_KEY is not configured (the start script generates one into DATA_DIR)");
  return Buffer.from(hex, "hex");
}

/**
 * HMAC-SHA256 (hex) of `value` under a key derived from ENCRYPTION_KEY for one `purpose`, so two uses never
 * share a key (signer cookies, email codes: server/domain/signing/signer-pass.ts).
 */
export function macHex(purpose: string, value: string): string {
  const key = createHmac("sha256", encryptionKey()).update(purpose, "utf8").digest();
  return createHmac("sha256", key).update(value, "utf8").digest("hex");
}

/** Two hex digests compared in constant time (false when their lengths differ). */
export function hexEqual(a: string, b: string): boolean {
  const x = Buffer.from(a, "hex");
  const y = Buffer.from(b, "hex");
  return x.length === y.length && x.length > 0 && timingSafeEqual(x, y);
}

/** AES-256-GCM; output `v1:<iv>:<tag>:<ciphertext>` in base64url. */
export function encryptSecret(plaintext: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", encryptionKey(), iv);
  const body = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
  const tag = cipher.getAuthTag();
  return ["v1", iv.toString("base64url"), tag.toString("base64url"), body.toString("base64url")].join(":");
}

export function decryptSecret(encoded: string): string {
  return decryptSecretWith(encryptionKey(), encoded);
}

/** `decryptSecret` under a given key (a restore checks a backup's key before it is the configured one). */
export function decryptSecretWith(key: Buffer, encoded: string): string {
  const [v, iv, tag, body] = encoded.split(":");
  if (v !== "v1" || !iv || !tag || !body) throw new Error("Unrecognised ciphertext format");
  const decipher = createDecipheriv("aes-256-gcm", key, Buffer.from(iv, "base64url"));
  decipher.setAuthTag(Buffer.from(tag, "base64url"));
  return Buffer.concat([decipher.update(Buffer.from(body, "base64url")), decipher.final()]).toString("utf8");
}
