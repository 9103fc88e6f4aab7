import { randomBytes } from "node:crypto";

const ALPHABET = "0123456789abcdefghijklmnopqrstuvwxyz";

/**
 * Prefixed, roughly time-ordered identifiers: `<prefix>_<time base36><16 random base36 chars>`.
 * The prefix tells a reader what an id names (`ws_`, `key_`, `whd_` …); the time part keeps inserts local.
 */
export function newId(prefix: string): string {
  const time = Date.now().toString(36).padStart(9, "0");
  const bytes = randomBytes(16);
  let rand = "";
  for (const b of bytes) rand += ALPHABET[b % 36];
  return `${prefix}_${time}${rand}`;
}
