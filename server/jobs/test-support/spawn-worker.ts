/**
 * For the crash tests (PostgreSQL): a real worker process (worker-process.ts) on the database at `url`, whose
 * JSON log lines can be awaited and whose clock and ticks are steered through stdin. The caller kills it
 * (SIGKILL for a crash, SIGTERM for a clean stop) and `killAll()`s what is left after its tests.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { createInterface } from "node:readline";

type TLine = Record<string, unknown>;

const children: ChildProcess[] = [];

/** Kills every worker spawned here that is still running (an afterAll). */
export function killAll(): void {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
}

/** Starts the worker with its clock `offsetMs` ahead; `env` adds to (or overrides) this process's environment. */
export function spawnWorker(url: string, name: string, opts: { offsetMs?: number; env?: Record<string, string> } = {}) {
  const child = spawn(process.execPath, ["--import", "tsx", "server/jobs/test-support/worker-process.ts", String(opts.offsetMs ?? 0)], {
    // The poll is long: every tick of these workers is either a wake-up or one the test asks for.
    env: { ...process.env, DATABASE_URL: url, LOG_LEVEL: "info", WORKER_POLL_MS: "600000", ...opts.env },
    stdio: ["pipe", "pipe", "inherit"],
  });
  children.push(child);
  const lines: TLine[] = [];
  const waiters: { match: (l: TLine) => boolean; resolve: (l: TLine) => void }[] = [];
  createInterface({ input: child.stdout! }).on("line", (text) => {
    let line: TLine;
    try {
      line = JSON.parse(text) as TLine;
    } catch {
      return;
    }
    lines.push(line);
    for (const w of [...waiters]) if (w.match(line)) w.resolve(line);
  });
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  const logged = (match: (l: TLine) => boolean, from = 0) =>
    new Promise<TLine>((resolve) => {
      const found = lines.slice(from).find(match);
      if (found) resolve(found);
      else waiters.push({ match, resolve });
    });
  /** Sends a command and resolves with its acknowledgement (the tick it asked for has run). */
  const command = async (cmd: { cmd: "tick" } | { cmd: "advance"; ms: number }, ack: string) => {
    const from = lines.length;
    child.stdin!.write(`${JSON.stringify(cmd)}\n`);
    return logged((l) => l.msg === ack, from);
  };
  return { name, child, exited, logged, lines, command };
}
