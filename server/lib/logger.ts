import pino from "pino";
import { env } from "@/server/env";

const KEY = Symbol.for("foliosign.logger");
const slot = globalThis as Record<symbol, pino.Logger | undefined>;

/** One JSON logger per process. Secrets never reach it: callers log ids, never key values or secrets. */
export function logger(): pino.Logger {
  slot[KEY] ??= pino({
    level: env().LOG_LEVEL,
    base: { service: "foliosign" },
    redact: { paths: ["*.authorization", "*.secret", "*.password", "headers.authorization"], censor: "[redacted]" },
  });
  return slot[KEY];
}
