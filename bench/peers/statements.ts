/**
 * Per-statement figures of a peer's drain from `pg_stat_statements`, when the server preloads it
 * (`shared_preload_libraries`; bench/README.md says how to turn it on and off again). The extension is created
 * in each peer's scratch database; each turn resets that database's entries just before the workers start and
 * reads them as soon as every delivery is durably complete. The bench's own poll ("how many are left?") is left
 * out. Without the preload the bench runs as before and prints none of this.
 */
import type { Sql } from "postgres";

export type TStatement = { label: string; calls: number; execMs: number; rows: number; buffers: number; walBytes: number };

export async function statementsLoaded(admin: Sql): Promise<boolean> {
  const [row] = await admin<{ s: string }[]>`select current_setting('shared_preload_libraries') as s`;
  return (row?.s ?? "").split(",").some((lib) => lib.trim() === "pg_stat_statements");
}

export async function enableStatements(db: Sql): Promise<void> {
  await db`create extension if not exists pg_stat_statements`;
}

export async function resetStatements(db: Sql): Promise<void> {
  await db`select pg_stat_statements_reset(0, (select oid from pg_database where datname = current_database()), 0)`;
}

/** A short name for a statement: ours by its role in the engine, the peers' by their first words. */
function labelOf(query: string): string {
  const q = query.replace(/\s+/g, " ").trim();
  if (q.includes("pg_advisory_xact_lock")) return "ours: claim lock";
  if (q.includes("first_queued")) return "ours: claim";
  if (q.includes("checked as (")) return "ours: pre-send check";
  if (q.includes("lease as ( delete from webhook_queue")) return "ours: delivered outcomes";
  return q.length > 90 ? `${q.slice(0, 87)}…` : q;
}

export async function readStatements(db: Sql): Promise<TStatement[]> {
  const rows = await db<{ query: string; calls: string; exec: number; rows: string; buffers: string; wal: string }[]>`
    select query, calls::text, total_exec_time as exec, rows::text, (shared_blks_hit + shared_blks_read)::text as buffers,
      wal_bytes::text as wal
    from pg_stat_statements
    where dbid = (select oid from pg_database where datname = current_database())`;
  return rows
    .filter((r) => !/count\(\*\)::int as n from/.test(r.query)) // the bench's own poll
    .map((r) => ({
      label: labelOf(r.query),
      calls: Number(r.calls),
      execMs: r.exec,
      rows: Number(r.rows),
      buffers: Number(r.buffers),
      walBytes: Number(r.wal),
    }));
}

/** The statements of several drains together (summed by label), the costliest first, per delivery. */
export function statementLines(turns: readonly TStatement[][], deliveries: number, top = 6): string[] {
  const byLabel = new Map<string, TStatement>();
  for (const s of turns.flat()) {
    const a = byLabel.get(s.label) ?? { label: s.label, calls: 0, execMs: 0, rows: 0, buffers: 0, walBytes: 0 };
    byLabel.set(s.label, {
      ...a,
      calls: a.calls + s.calls,
      execMs: a.execMs + s.execMs,
      rows: a.rows + s.rows,
      buffers: a.buffers + s.buffers,
      walBytes: a.walBytes + s.walBytes,
    });
  }
  const all = [...byLabel.values()].sort((a, b) => b.execMs - a.execMs);
  const sum = all.reduce((t, s) => t + s.execMs, 0);
  return all
    .slice(0, top)
    .map(
      (s) =>
        `  ${((100 * s.execMs) / (sum || 1)).toFixed(0).padStart(3)} % | ${((s.execMs * 1000) / deliveries).toFixed(1).padStart(6)} µs | ${(s.calls / deliveries).toFixed(3)} calls | ${(s.rows / Math.max(1, s.calls)).toFixed(1).padStart(5)} rows/call | ${(s.buffers / deliveries).toFixed(1).padStart(5)} buffers | ${(s.walBytes / deliveries).toFixed(0).padStart(5)} B WAL  ${s.label}`,
    );
}
