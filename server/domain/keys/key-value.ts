import { randomBytes } from "node:crypto";
import { sha256Hex } from "@/server/lib/crypto";

/** Every API key value starts with this; the API door refuses any other bearer token at once. */
export const KEY_PREFIX = "fsk_";

/** A new key value: `fsk_` + 32 random bytes (base64url); stored only as its SHA-256 and a display prefix. */
export function generateApiKeyValue(): { value: string; hash: string; prefix: string } {
  const value = `${KEY_PREFIX}${randomBytes(32).toString("base64url")}`;
  return { value, hash: sha256Hex(value), prefix: value.slice(0, KEY_PREFIX.length + 6) };
}
