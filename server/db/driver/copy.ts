/**
 * Binary COPY (server/db/driver/, see index.ts): rows with large `bytea` values written (`copyRowsIn`) and read
 * (`copyRowsOut`) as their own bytes, never as JS strings.
 */
import { finished } from "node:stream/promises";
import { getTableName, sql, type SQL } from "drizzle-orm";
import type { PgColumn, PgTable } from "drizzle-orm/pg-core";
import { dialect, type Db } from "./rows";

/**
 * ## Rows with large `bytea` values (`copyRowsIn`)
 *
 * Inserts rows through `COPY <table> (<columns>) FROM … (FORMAT binary)`, so a `bytea` value travels as its own
 * bytes and never as a JS string. Through an ordinary insert both drivers send a `bytea` as hex text
 * (postgres.js serialises every parameter as text; PGlite 0.5 builds that text one byte at a time): a 256 KiB
 * chunk of the database file store became a 512 KiB string, which V8 promotes while its query is in flight and
 * frees only at its next full GC — a 200 MB upload grew the server's RSS by +76…+166 MB (bench/README.md,
 * `bench:uploads`, issue 26). postgres.js: `COPY … FROM STDIN` through the query's `writable()` stream;
 * PGlite: `COPY … FROM '/dev/blob'` with the bytes given as the query's `blob` (read by the WASM side from an
 * ArrayBuffer, no string). Works on a database or inside a transaction (its connection).
 *
 * Values by column type: text (string), integer (number), bytea (Uint8Array), timestamptz (Date). Anything else
 * throws: extend `binaryField` first.
 *
 * postgres.js caveat: its COPY stream stops listening once the data is sent, so an error the server reports
 * after that (a constraint violated by the rows, the connection lost) never settles the stream — callers copy
 * rows that violate nothing (fresh keys); errors before the data (no such table) reject as usual.
 */
const COPY_SIGNATURE = Buffer.from("PGCOPY\n\xff\r\n\0", "latin1");
/** PostgreSQL's epoch (2000-01-01T00:00:00Z) in Unix milliseconds. */
const PG_EPOCH_MS = 946_684_800_000;

/** One field: its length (−1 for null), then its bytes (a bytea's own, not copied). */
function binaryField(column: PgColumn, value: unknown): Buffer[] {
  const type = column.getSQLType();
  const length = Buffer.alloc(4);
  if (value === null || value === undefined) {
    length.writeInt32BE(-1);
    return [length];
  }
  let body: Buffer;
  if (type === "text" && typeof value === "string") body = Buffer.from(value, "utf8");
  else if (type === "integer" && typeof value === "number") {
    body = Buffer.alloc(4);
    body.writeInt32BE(value);
  } else if (type === "bytea" && value instanceof Uint8Array) body = Buffer.from(value.buffer, value.byteOffset, value.byteLength);
  else if (type === "timestamp with time zone" && value instanceof Date) {
    body = Buffer.alloc(8);
    body.writeBigInt64BE(BigInt(value.getTime() - PG_EPOCH_MS) * 1000n);
  } else throw new Error(`copyRowsIn: column ${column.name} (${type}) cannot take ${typeof value}`);
  length.writeInt32BE(body.byteLength);
  return [length, body];
}

/** The whole COPY binary stream for these rows: signature, flags, header extension, tuples, trailer. */
function binaryCopyData(columns: readonly PgColumn[], rows: readonly (readonly unknown[])[]): Buffer {
  const parts: Buffer[] = [COPY_SIGNATURE, Buffer.alloc(8)];
  for (const row of rows) {
    const count = Buffer.alloc(2);
    count.writeInt16BE(columns.length);
    parts.push(count, ...columns.flatMap((c, i) => binaryField(c, row[i])));
  }
  parts.push(Buffer.from([0xff, 0xff]));
  return Buffer.concat(parts);
}

type TCopyClient = {
  unsafe?: (text: string) => { writable(): Promise<NodeJS.WritableStream> };
  query?: (text: string, params: unknown[], options: { blob: Blob }) => Promise<unknown>;
};

export async function copyRowsIn(db: Db, table: PgTable, columns: readonly PgColumn[], rows: readonly (readonly unknown[])[]): Promise<void> {
  const target = `${dialect.escapeName(getTableName(table))} (${columns.map((c) => dialect.escapeName(c.name)).join(", ")})`;
  const data = binaryCopyData(columns, rows);
  const client = (db as unknown as { _: { session: { client: TCopyClient } } })._.session.client;
  if (client.unsafe) {
    const stream = await client.unsafe(`copy ${target} from stdin with (format binary)`).writable();
    stream.end(data);
    await finished(stream);
    return;
  }
  // PGlite reads the blob only through its arrayBuffer(): given the bytes themselves, not a Blob (a native copy
  // V8 does not see, then a second copy for arrayBuffer()), a 200 MB upload's 800 chunks no longer pile up
  // +200 MB of memory outside the heap until a GC happens to run (bench/README.md, bench:uploads, issue 26).
  const bytes =
    data.byteOffset === 0 && data.byteLength === data.buffer.byteLength ? data.buffer : data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength);
  const blob = { arrayBuffer: async () => bytes } as unknown as Blob;
  await client.query!(`copy ${target} from '/dev/blob' with (format binary)`, [], { blob });
}

/**
 * ## Reading rows with large `bytea` values (`copyRowsOut`)
 *
 * Runs `COPY (<select>) TO … (FORMAT binary)` and decodes the rows, so a `bytea` comes back as its own bytes and
 * never as a JS string. Through a select both drivers return a `bytea` as hex text (neither asks for binary
 * results): a 256 KiB chunk of the database file store came back as a 512 KiB string, and a 200 MB download grew
 * the server's RSS by +161…+192 MB (bench/README.md, `bench:uploads`, issue 26). postgres.js: `COPY … TO STDOUT`
 * through the query's `readable()` stream, read to its end before returning (a COPY left half read would keep
 * its connection paused); PGlite: `COPY … TO '/dev/blob'`, the bytes handed back as the result's `blob`.
 *
 * COPY takes no parameters: the select's values are written into its text as literals (drizzle's inline
 * parameters: strings quoted with `'` doubled, numbers as digits). Each row is an array in the select's column
 * order, decoded by `columns` (the same types as `copyRowsIn`: text, integer, bytea, timestamptz; a bytea is a
 * Buffer viewing the COPY's data, no copy). Same postgres.js caveat as `copyRowsIn`: an error the server reports
 * after the COPY started (the connection lost mid-read) does not end the stream.
 */
type TCopyOutClient = {
  unsafe?: (text: string) => { readable(): Promise<AsyncIterable<Buffer> & { _read(size: number): void }> };
  query?: (text: string, params: unknown[]) => Promise<{ blob?: Blob }>;
};

function fieldFromBinary(column: PgColumn, bytes: Buffer): unknown {
  const type = column.getSQLType();
  if (type === "bytea") return bytes;
  if (type === "text") return bytes.toString("utf8");
  if (type === "integer") return bytes.readInt32BE(0);
  if (type === "timestamp with time zone") return new Date(Number(bytes.readBigInt64BE(0) / 1000n) + PG_EPOCH_MS);
  throw new Error(`copyRowsOut: column ${column.name} (${type}) cannot be decoded`);
}

/** The tuples of a COPY binary stream (signature, flags, header extension, tuples, trailer), decoded by `columns`. */
function rowsFromBinaryCopy(data: Buffer, columns: readonly PgColumn[]): unknown[][] {
  if (!data.subarray(0, COPY_SIGNATURE.length).equals(COPY_SIGNATURE)) throw new Error("copyRowsOut: not a binary COPY stream");
  let at = COPY_SIGNATURE.length + 4;
  at += 4 + data.readInt32BE(at);
  const rows: unknown[][] = [];
  for (;;) {
    const count = data.readInt16BE(at);
    at += 2;
    if (count === -1) return rows;
    if (count !== columns.length) throw new Error(`copyRowsOut: ${count} fields in a row, ${columns.length} columns expected`);
    const row: unknown[] = [];
    for (const column of columns) {
      const length = data.readInt32BE(at);
      at += 4;
      if (length === -1) row.push(null);
      else {
        row.push(fieldFromBinary(column, data.subarray(at, at + length)));
        at += length;
      }
    }
    rows.push(row);
  }
}

export async function copyRowsOut(db: Db, query: SQL, columns: readonly PgColumn[]): Promise<unknown[][]> {
  for (const value of dialect.sqlToQuery(query).params) {
    if (typeof value !== "string" && typeof value !== "number") throw new Error(`copyRowsOut: a ${typeof value} value cannot be written as a literal`);
  }
  const { sql: select } = dialect.sqlToQuery(sql`${query}`.inlineParams());
  const client = (db as unknown as { _: { session: { client: TCopyOutClient } } })._.session.client;
  if (client.unsafe) {
    const stream = await client.unsafe(`copy (${select}) to stdout with (format binary)`).readable();
    const parts: Buffer[] = [];
    for await (const part of stream) parts.push(part);
    // postgres.js 3.4.9 pauses the socket when the stream's buffer is full and resumes it only from the stream's
    // read(): when the COPY's last data and its end arrived in that same burst, nothing calls read() again and the
    // connection never reads the COPY's completion — every later query on it hangs. Resume it once the stream ended.
    stream._read(0);
    return rowsFromBinaryCopy(parts.length === 1 ? parts[0]! : Buffer.concat(parts), columns);
  }
  const { blob } = await client.query!(`copy (${select}) to '/dev/blob' with (format binary)`, []);
  if (!blob) throw new Error("copyRowsOut: PGlite returned no blob");
  return rowsFromBinaryCopy(Buffer.from(await blob.arrayBuffer()), columns);
}
