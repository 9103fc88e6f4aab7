import { randomToken, sha256Hex } from "@/server/lib/crypto";

/** Every API key value starts with this; the API door refuses any other bearer token at once. */
export const KEY_PREFIX = "fsk_";
/** A test workspace's keys read `fsk_test_…` (docs/decisions/test-mode.md); a live key never does. */
export const TEST_KEY_PREFIX = "fsk_test_";

/**
 * A new key value: `fsk_` (or `fsk_test_` for a test workspace) + 32 random bytes (base64url); stored only as its
 * SHA-256 and a display prefix (the mode's prefix and 6 more characters). A live value whose random part happens
 * to begin with `test_` is drawn again, so the prefix alone always tells the mode.
 */
export function generateApiKeyValue(opts: { test?: boolean } = {}): { value: string; hash: string; prefix: string } {
  const head = opts.test ? TEST_KEY_PREFIX : KEY_PREFIX;
  let value: string;
  do value = `${head}${randomToken()}`;
  while (!opts.test && value.startsWith(TEST_KEY_PREFIX));
  return { value, hash: sha256Hex(value), prefix: value.slice(0, head.length + 6) };
}

/** Whether a key value is a test workspace's. */
export const isTestKeyValue = (value: string) => value.startsWith(TEST_KEY_PREFIX);
