import pino from "pino";
import { env } from "@/server/env";

const KEY = Symbol.for("foliosign.logger");
const slot = globalThis as Record<symbol, pino.Logger | undefined>;

/** The process's logger configuration; `destination` lets a test read the JSON lines. */
export function createLogger(destination?: pino.DestinationStream, level: string = env().LOG_LEVEL): pino.Logger {
  return pino(
    {
      level,
      base: { service: "foliosign" },
      redact: { paths: ["*.authorization", "*.secret", "*.password", "headers.authorization"], censor: "[redacted]" },
    },
    destination,
  );
}

/** One JSON logger per process. Secrets never reach it: callers log ids, never key values or secrets. */
export function logger(): pino.Logger {
  slot[KEY] ??= createLogger();
  return slot[KEY];
}

/** Tests install a logger writing where they can read it; `undefined` restores the default. */
export function setLogger(instance: pino.Logger | undefined): void {
  slot[KEY] = instance;
}
