/**
 * The processes around a round of `npm run bench:peers`: the loopback receiver (bench/webhook-receiver.mjs, its
 * own process), the worker processes (peers.ts --worker, see worker-process.ts) and the CPU time of any
 * process (the PostgreSQL backends) from /proc.
 */
import { fork, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import type { TPeer } from "./config";

/**
 * CPU seconds of one process so far (null once it is gone): /proc/<pid>/schedstat (nanoseconds on a CPU), or
 * user + system clock ticks from /proc/<pid>/stat where schedstat is missing. Ticks are 10 ms: with ten
 * backends, ±0.1 s per round — ±50 µs per delivery at 2,000, as much as graphile-worker's whole figure.
 */
export function procSeconds(pid: number): number | null {
  try {
    return Number(readFileSync(`/proc/${pid}/schedstat`, "utf8").split(" ")[0]) / 1e9;
  } catch {
    // fall through
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return null;
  }
}

export type TReceiverStats = {
  received: number;
  distinct: number;
  duplicates: number;
  lastByPath: Record<string, number>;
  firstByPath: Record<string, number>;
  /** The most requests each path had open at once (arrived or arriving, not yet answered). */
  maxInFlightByPath: Record<string, number>;
  /** When `mark()` was called, on the receiver's clock (that of lastByPath), or null. */
  markAt: number | null;
};

export async function startReceiver() {
  const child: ChildProcess = fork(path.join(import.meta.dirname, "..", "webhook-receiver.mjs"), [], {
    execArgv: [],
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  const replies = new Map<number, (m: unknown) => void>();
  let ref = 0;
  const port = await new Promise<number>((resolve, reject) => {
    child.once("error", reject);
    child.on("message", (m: { type: string; port?: number; ref?: number }) => {
      if (m.type === "ready") resolve(m.port!);
      else if (m.ref !== undefined) {
        replies.get(m.ref)?.(m);
        replies.delete(m.ref);
      }
    });
  });
  const ask = <T>(msg: object) =>
    new Promise<T>((resolve) => {
      ref += 1;
      replies.set(ref, resolve as (m: unknown) => void);
      child.send({ ...msg, ref });
    });
  return {
    url: `http://127.0.0.1:${port}`,
    pid: child.pid!,
    waitForReceived: (total: number) => ask<unknown>({ type: "wait", total }),
    /** Start counting delivery ids (and arrivals per path) afresh. */
    track: () => ask<unknown>({ type: "track" }),
    /** Note now as the start of the drain (arrivals are then read against it); no answer awaited. */
    mark: () => void child.send({ type: "mark" }),
    stats: () => ask<TReceiverStats>({ type: "stats" }),
    count: async () => (await ask<{ received: number }>({ type: "count" })).received,
    stop: () => child.disconnect(),
  };
}

export function startWorkerProcess(peer: TPeer, url: string) {
  const base = process.env.BENCH_BASE;
  const child = fork(
    peer === "base" ? path.join(base!, "bench/peers.ts") : path.join(import.meta.dirname, "..", "peers.ts"),
    ["--worker", peer === "base" ? "ours" : peer, url],
    {
      // tsx reads tsconfig.json (the `@/` paths) from the working directory: the base build's own.
      cwd: peer === "base" ? base : undefined,
      stdio: ["ignore", "inherit", "inherit", "ipc"],
    },
  );
  const next = (type: string) =>
    new Promise<{ type: string; seconds?: number }>((resolve, reject) => {
      const onMessage = (m: { type: string; seconds?: number }) => {
        if (m.type !== type) return;
        child.off("message", onMessage);
        resolve(m);
      };
      child.on("message", onMessage);
      child.once("exit", (code) => reject(new Error(`${peer} worker exited (${code}) before "${type}"`)));
    });
  const ready = next("ready");
  return {
    ready,
    go: () => child.send({ type: "go" }),
    cpu: async () => {
      const answer = next("cpu");
      child.send({ type: "cpu" });
      return (await answer).seconds!;
    },
    stop: () =>
      new Promise<void>((resolve) => {
        child.once("exit", () => resolve());
        child.send({ type: "stop" });
      }),
  };
}
