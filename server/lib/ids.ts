import { randomFillSync } from "node:crypto";
import { sql, type SQL } from "drizzle-orm";

/**
 * Every row id has one format, made here — in TypeScript by `newId`, and inside SQL by `sqlNewId` for rows
 * that a statement creates in bulk (a fan-out to every subscribed endpoint, the attempt log of lost attempts):
 *
 *   `<prefix>_<12 hex digits: milliseconds since 1970><32 hex digits: random>`
 *
 * The prefix tells a reader what an id names (`ws_`, `key_`, `whd_` …); the time part keeps ids roughly
 * time-ordered so inserts stay local in the index. Ids name things; they are not secrets (tokens and keys
 * come from crypto.randomBytes directly).
 */
export const ID_PATTERN = /^[a-z]+_[0-9a-f]{44}$/;

/** Random bytes drawn from a pool refilled 4 KB at a time: one CSPRNG call per 256 ids instead of one per id. */
const pool = Buffer.alloc(4096);
let offset = pool.length;

function randomHex16(): string {
  if (offset + 16 > pool.length) {
    randomFillSync(pool);
    offset = 0;
  }
  const hex = pool.toString("hex", offset, offset + 16);
  offset += 16;
  return hex;
}

export function newId(prefix: string): string {
  return `${prefix}_${Date.now().toString(16).padStart(12, "0")}${randomHex16()}`;
}

/** The same format computed by PostgreSQL (gen_random_uuid's hex is the random part). */
export function sqlNewId(prefix: string): SQL {
  if (!/^[a-z]+$/.test(prefix)) throw new Error(`invalid id prefix: ${prefix}`);
  return sql.raw(
    `('${prefix}_' || lpad(to_hex((extract(epoch from clock_timestamp()) * 1000)::bigint), 12, '0') || replace(gen_random_uuid()::text, '-', ''))`,
  );
}

/**
 * Ids as ONE parameter, a PostgreSQL array literal (`{a,b}`), to bind and cast with `::text[]`: the statement's
 * text stays the same whatever the count (drizzle expands a JS array into one parameter per element). An id holds
 * no comma, brace, quote or space (ID_PATTERN), so none needs quoting.
 */
export function idArray(ids: readonly string[]): string {
  return `{${ids.join(",")}}`;
}
