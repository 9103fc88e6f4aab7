import { randomFillSync } from "node:crypto";

const ALPHABET = "0123456789abcdefghijklmnopqrstuvwxyz";

/** Random bytes drawn from a pool refilled 4 KB at a time: one CSPRNG call per 256 ids instead of one per id. */
const pool = Buffer.alloc(4096);
let offset = pool.length;

function randomBytes16(): Buffer {
  if (offset + 16 > pool.length) {
    randomFillSync(pool);
    offset = 0;
  }
  const bytes = pool.subarray(offset, offset + 16);
  offset += 16;
  return bytes;
}

/**
 * Prefixed, roughly time-ordered identifiers: `<prefix>_<time base36><16 random base36 chars>`.
 * The prefix tells a reader what an id names (`ws_`, `key_`, `whd_` …); the time part keeps inserts local.
 * Ids name things; they are not secrets (tokens and keys come from crypto.randomBytes directly).
 */
export function newId(prefix: string): string {
  const time = Date.now().toString(36).padStart(9, "0");
  const bytes = randomBytes16();
  let rand = "";
  for (const b of bytes) rand += ALPHABET[b % 36];
  return `${prefix}_${time}${rand}`;
}
