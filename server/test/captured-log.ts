/**
 * The project logger's JSON lines, captured for a test. `captureLog()` installs a logger (level info, or debug) that
 * writes into `lines` at once; `restore()` puts the default back. `useCapturedLog()` does both around every
 * test of the file or describe block it is called in, and hands back the current capture.
 */
import { Writable } from "node:stream";
import { afterEach, beforeEach } from "vitest";
import { createLogger, setLogger } from "@/server/lib/logger";

export type TCapturedLog = {
  /** Each JSON line as written. */
  lines: string[];
  /** The lines parsed. */
  records(): Record<string, unknown>[];
  restore(): void;
};

/** `level`: the lowest level captured (a test that a secret never reaches the logs wants "debug"). */
export function captureLog(level: "info" | "debug" = "info"): TCapturedLog {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      lines.push(...chunk.toString("utf8").split("\n").filter(Boolean));
      done();
    },
  });
  setLogger(createLogger(sink, level));
  return {
    lines,
    records: () => lines.map((line) => JSON.parse(line) as Record<string, unknown>),
    restore: () => setLogger(undefined),
  };
}

/** A fresh capture for every test (read it inside the test: `log().records()`). */
export function useCapturedLog(): () => TCapturedLog {
  let current: TCapturedLog | undefined;
  beforeEach(() => {
    current = captureLog();
  });
  afterEach(() => current?.restore());
  return () => current!;
}
