/**
 * CPU time of local processes from /proc (Linux), for the benchmarks' "CPU per request / per delivery"
 * figures, which do not depend on what else the machine runs. Every function answers null where /proc
 * cannot tell (another OS).
 */
import { execSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";

type TProc = { ppid: number; comm: string; ticks: number };

const CLOCK_TICKS = (() => {
  try {
    return Number(execSync("getconf CLK_TCK", { encoding: "utf8" }).trim()) || 100;
  } catch {
    return 100;
  }
})();

/** Every process now: parent, command name, and user + system time in clock ticks. */
function processes(): Map<number, TProc> | null {
  const procs = new Map<number, TProc>();
  try {
    for (const entry of readdirSync("/proc")) {
      const pid = Number(entry);
      if (!Number.isInteger(pid)) continue;
      let stat: string;
      try {
        stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      } catch {
        continue; // gone meanwhile
      }
      const comm = stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"));
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      // ppid, then utime and stime (fields 4, 14 and 15 of the line)
      procs.set(pid, { ppid: Number(fields[1]), comm, ticks: Number(fields[11]) + Number(fields[12]) });
    }
  } catch {
    return null;
  }
  return procs;
}

/** CPU seconds used so far by the processes `match` picks (e.g. every `postgres`); null when none matched. */
export function cpuSecondsOf(match: (pid: number, comm: string) => boolean): number | null {
  const procs = processes();
  if (!procs) return null;
  let ticks = 0;
  let seen = false;
  for (const [pid, p] of procs) {
    if (!match(pid, p.comm)) continue;
    ticks += p.ticks;
    seen = true;
  }
  return seen ? ticks / CLOCK_TICKS : null;
}

/** CPU seconds used so far by `root` and its descendants (a server and its children). */
export function treeCpuSeconds(root: number): number | null {
  const procs = processes();
  if (!procs) return null;
  const inTree = (pid: number) => {
    for (let at: number | undefined = pid; at; at = procs.get(at)?.ppid) if (at === root) return true;
    return false;
  };
  return cpuSecondsOf((pid) => inTree(pid)) ?? 0;
}
