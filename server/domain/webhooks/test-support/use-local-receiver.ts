/**
 * For a test file that delivers to a local receiver (http on 127.0.0.1): turns the development switch
 * WEBHOOK_ALLOW_PRIVATE_TARGETS on and starts the receiver before the file's tests, and undoes both after.
 * Returns the receiver; it may be used from the tests and hooks onwards, not at module top level.
 */
import { afterAll, beforeAll } from "vitest";
import { resetEnvCache } from "@/server/env";
import { startReceiver, type TReceiver, type TReceiverHandler } from "./receiver";

export function useLocalReceiver(handler?: TReceiverHandler): TReceiver {
  let started: TReceiver | undefined;
  const rx = (): TReceiver => {
    if (!started) throw new Error("the local receiver starts in beforeAll");
    return started;
  };
  beforeAll(async () => {
    process.env.WEBHOOK_ALLOW_PRIVATE_TARGETS = "true";
    resetEnvCache();
    started = await startReceiver(handler);
  });
  afterAll(async () => {
    process.env.WEBHOOK_ALLOW_PRIVATE_TARGETS = "false";
    resetEnvCache();
    await started?.close();
  });
  return {
    get url() {
      return rx().url;
    },
    get port() {
      return rx().port;
    },
    get received() {
      return rx().received;
    },
    setHandler: (h) => rx().setHandler(h),
    waitFor: (count) => rx().waitFor(count),
    close: () => rx().close(),
  };
}
