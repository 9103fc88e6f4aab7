/**
 * The JSON of a packages list page, written by PostgreSQL: each listed package arrives as ONE text column that
 * is already its JSON — exactly the bytes of `JSON.stringify(ZPackageList.parse(list))` for that package (the
 * schema's keys in its order, the same escapes) — so the server neither parses 20 columns × 25 rows into objects
 * nor walks them again to write them. The packages list is the API's busiest read; its route answers with this
 * text (`JsonText`, server/http/route.ts) instead of passing the declared schema on every request
 * (bench/README.md, `bench:packages`, issue 19, "the page's JSON written by PostgreSQL").
 *
 * Why concatenation and not `json_build_object`: PostgreSQL's json writers put spaces after `:` and `,`
 * (`{"a" : 1, "b" : 2}`), and `jsonb` reorders keys; neither is the schema's text. `to_json(text)` escapes a
 * string as `JSON.stringify` does (`\"`, `\\`, `\b \f \n \r \t`, other control characters as `\u00xx`
 * lowercase, everything else as it is); text in PostgreSQL cannot hold NUL or a lone surrogate, the only
 * strings where the two could differ. The metadata is re-written key by key in the order `JSON.parse` gives a
 * parsed `jsonb` (integer-like keys first, ascending, then the stored order), with no spaces.
 * package-list-json.test.ts holds the text equal to the schema's JSON of `listPackages`' rows, field by field,
 * for nulls, metadata, quotes, backslashes, control characters and non-ASCII text. A new field of the summary
 * must be added here (that test fails until it is).
 */
import { sql, type SQL } from "drizzle-orm";
import type { PgColumn } from "drizzle-orm/pg-core";
import { isoText } from "@/server/db/driver";
import { packages } from "@/server/db/schema";

/** A text column as a JSON string, or `null`. */
const str = (value: PgColumn) => sql`coalesce(to_json(${value})::text, 'null')`;
/** A timestamp as the schema's ISO string (nothing in it needs escaping), or `null`. */
const iso = (value: PgColumn) => sql`coalesce('"' || ${isoText(value)} || '"', 'null')`;

/**
 * A `jsonb` object of string values as `JSON.stringify(JSON.parse(value::text))` writes it: JavaScript puts
 * array-index keys (`0`, `1`, … below 2³²−1, no leading zeros) first in ascending order, then the others in
 * the order the text gave them (jsonb's stored order, which `jsonb_each` keeps).
 */
const metadataJson = sql`(case when ${packages.metadata} = '{}'::jsonb then '{}' else (select '{' || string_agg(to_json(m.key)::text || ':' || m.value::text, ',' order by (case when m.key ~ '^(0|[1-9][0-9]{0,9})$' then (case when m.key::int8 <= 4294967294 then m.key::int8 end) end) nulls last, m.n) || '}' from jsonb_each(${packages.metadata}) with ordinality as m(key, value, n)) end)`;

/** One package of the page as its JSON text; the recipient counts are the page query's own subqueries. */
export function summaryJsonSql(recipientTotal: SQL, recipientCompleted: SQL): SQL<string> {
  return sql<string>`'{"id":' || ${str(packages.id)} || ',"title":' || ${str(packages.title)} || ',"status":' || ${str(packages.status)} || ',"externalId":' || ${str(packages.externalId)} || ',"metadata":' || ${metadataJson} || ',"templateId":' || ${str(packages.templateId)} || ',"ownerUserId":' || ${str(packages.ownerUserId)} || ',"sequential":' || (case when ${packages.sequential} then 'true' else 'false' end) || ',"sendAt":' || ${iso(packages.sendAt)} || ',"scheduleError":' || ${str(packages.scheduleError)} || ',"expiresAt":' || ${iso(packages.expiresAt)} || ',"expiredAt":' || ${iso(packages.expiredAt)} || ',"sentAt":' || ${iso(packages.sentAt)} || ',"firstViewedAt":' || ${iso(packages.firstViewedAt)} || ',"completedAt":' || ${iso(packages.completedAt)} || ',"declinedAt":' || ${iso(packages.declinedAt)} || ',"voidedAt":' || ${iso(packages.voidedAt)} || ',"createdAt":' || ${iso(packages.createdAt)} || ',"updatedAt":' || ${iso(packages.updatedAt)} || ',"recipientCounts":{"total":' || (${recipientTotal})::text || ',"completed":' || (${recipientCompleted})::text || '}}'`;
}

/** An integer as JSON; anything else is a bug the schema would have refused (500), so it still is. */
function int(value: number): string {
  if (!Number.isSafeInteger(value)) throw new Error(`packages list: ${String(value)} is not an integer`);
  return String(value);
}

/** The page around its packages' JSON texts (in order). */
export function packageListPageJson(items: readonly string[], totalCount: number, page: number, pageSize: number): string {
  return `{"packages":[${items.join(",")}],"totalCount":${int(totalCount)},"page":${int(page)},"pageSize":${int(pageSize)}}`;
}
