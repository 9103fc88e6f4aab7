/**
 * BENCH_PERF=<dir> for `npm run bench:peers`: where the PostgreSQL backends' CPU goes, by function. Each drain
 * runs under `perf record -a -g` (<dir>/<peer>-<round>.data, sampled at FREQUENCY per CPU; the `perf` of the
 * Debian package linux-perf, run as root), and its samples of processes named `postgres` are sorted into groups
 * by the functions on their stacks (the first group that matches, in the order below: a sample under a commit's
 * WAL flush is counted there, not again under the executor). PostgreSQL's own symbols come from its dynamic
 * symbol table (static functions show as unknown), so the groups name exported functions only. perf adds its own
 * cost to the machine: drain rates measured under it are not comparable with runs without it; the groups compare
 * peers and builds in the same run.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { mkdirSync } from "node:fs";
import path from "node:path";

export const FREQUENCY = 2000;

/** Groups, in the order a sample is tried against them; a sample matching none is "other". */
const GROUPS: readonly (readonly [string, readonly string[]])[] = [
  ["commit: WAL flush", ["XLogFlush"]],
  ["commit: other", ["CommitTransaction"]],
  ["input: JSON", ["json_lex", "pg_parse_json", "json_in"]],
  ["input: arrays", ["array_in"]],
  ["pruning, dead index entries", ["heap_page_prune", "heap_index_delete_tuples", "_bt_bottomupdel_pass"]],
  ["writes: index entries", ["btinsert", "_bt_doinsert"]],
  ["writes: rows", ["heap_update", "heap_insert", "heap_delete", "ExecUpdate", "ExecInsert", "ExecDelete"]],
  ["writes: relation extension", ["mdextend", "smgrextend"]],
  ["foreign-key checks", ["RI_FKey"]],
  ["reads: index scans", ["_bt_first", "btgettuple", "index_getnext", "index_fetch_heap", "_bt_next"]],
  ["executor: start and end", ["ExecInitNode", "standard_ExecutorStart", "ExecutorStart", "ExecEndNode", "ExecutorEnd"]],
  ["plan cache, bind", ["GetCachedPlan", "exec_bind_message", "RevalidateCachedQuery", "CheckCachedPlan"]],
  ["protocol: read, wait, send", ["secure_read", "pq_getbyte", "secure_write", "pq_flush", "WaitEventSetWait", "ReadCommand"]],
  ["executor: other", ["standard_ExecutorRun", "ExecScan", "ExecProcNode", "PortalRun"]],
];
export const GROUP_NAMES = [...GROUPS.map(([name]) => name), "other"];

export type TPerfGroups = Record<string, number>;

/** Starts `perf record` over the whole machine; `stop()` ends it and returns the postgres samples per group. */
export async function startPerf(dir: string, name: string): Promise<{ stop(): Promise<TPerfGroups> }> {
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${name}.data`);
  const child: ChildProcess = spawn("perf", ["record", "-a", "-g", "-F", String(FREQUENCY), "-o", file], { stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  child.stderr!.on("data", (d: Buffer) => (stderr += d.toString()));
  let failed: Error | undefined;
  const exited = new Promise<void>((resolve) => {
    child.once("exit", () => resolve());
    child.once("error", (err) => {
      failed = err;
      resolve();
    });
  });
  // perf needs a moment to open its events on every CPU before the drain starts.
  await new Promise((r) => setTimeout(r, 300));
  if (failed) throw new Error(`BENCH_PERF: perf did not start (${failed.message}); install linux-perf and run as root`);
  if (child.exitCode !== null) throw new Error(`BENCH_PERF: perf record exited at once: ${stderr.trim()}`);
  return {
    async stop() {
      child.kill("SIGINT");
      await exited;
      const script = spawnSync("perf", ["script", "-i", file, "--comm", "postgres"], { encoding: "utf8", maxBuffer: 1 << 30 });
      if (script.status !== 0) throw new Error(`BENCH_PERF: perf script failed: ${script.stderr}`);
      return groupSamples(script.stdout);
    },
  };
}

/** `perf script` output (samples separated by blank lines, the first line the sample, then its stack). */
export function groupSamples(text: string): TPerfGroups {
  const counts: TPerfGroups = Object.fromEntries(GROUP_NAMES.map((g) => [g, 0]));
  for (const block of text.split("\n\n")) {
    const lines = block.split("\n").filter((l) => l.trim() !== "");
    if (lines.length === 0) continue;
    const stack = lines.slice(1).join("\n");
    const group = GROUPS.find(([, fns]) => fns.some((fn) => stack.includes(fn)))?.[0] ?? "other";
    counts[group]! += 1;
  }
  return counts;
}
