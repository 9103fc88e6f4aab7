/**
 * The cap the inspector and the converter share: never more than `limit` runs at once, the others start in
 * the order they arrived, and a run that fails frees its slot like one that succeeds.
 */
import { describe, expect, it } from "vitest";
import { concurrencyLimit } from "./concurrency";

function deferred() {
  let resolve!: () => void;
  let reject!: (err: Error) => void;
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe("concurrencyLimit", () => {
  it("runs at most `limit` at once, starts the waiting ones in order, and frees a slot on failure", async () => {
    const limited = concurrencyLimit();
    const gates = Array.from({ length: 5 }, deferred);
    const started: number[] = [];
    let running = 0;
    let most = 0;
    const results = gates.map((gate, i) =>
      limited(2, async () => {
        started.push(i);
        most = Math.max(most, ++running);
        try {
          await gate.promise;
          return i;
        } finally {
          running--;
        }
      }).catch((err: Error) => err.message),
    );
    await settle();
    expect(started).toEqual([0, 1]);

    gates[1]!.reject(new Error("run 1 failed"));
    await settle();
    expect(started).toEqual([0, 1, 2]);

    gates[0]!.resolve();
    await settle();
    expect(started).toEqual([0, 1, 2, 3]);

    for (const gate of gates) gate.resolve();
    expect(await Promise.all(results)).toEqual([0, "run 1 failed", 2, 3, 4]);
    expect(started).toEqual([0, 1, 2, 3, 4]);
    expect(most).toBe(2);

    // Every slot came back: two new runs start at once.
    const again = deferred();
    let startedAgain = 0;
    const hold = async () => {
      startedAgain++;
      await again.promise;
    };
    const both = [limited(2, hold), limited(2, hold)];
    await settle();
    expect(startedAgain).toBe(2);
    again.resolve();
    await Promise.all(both);
  });
});
