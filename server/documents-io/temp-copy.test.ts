/**
 * The temporary copy the inspector reads: byte-identical to what streamed through, private (0600), whole by
 * the time the consumer has read the body, and removed by `remove()` also when the consumer stopped early.
 */
import { existsSync, readFileSync, statSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { createTempCopy } from "./temp-copy";

async function* pieces(count: number, size = 1000) {
  for (let i = 0; i < count; i++) yield new Uint8Array(size).fill(i);
}

describe("createTempCopy", () => {
  it("writes every chunk that passes through, unchanged, before passing it on", async () => {
    const copy = await createTempCopy();
    const passed: Uint8Array[] = [];
    for await (const chunk of copy.tee(pieces(50))) passed.push(chunk);
    const onDisk = readFileSync(copy.path);
    expect(onDisk.equals(Buffer.concat(passed))).toBe(true);
    expect(onDisk.length).toBe(50_000);
    expect(statSync(copy.path).mode & 0o777).toBe(0o600);
    await copy.remove();
    expect(existsSync(copy.path)).toBe(false);
  });

  it("is removed when the consumer stops early, and remove() may be called twice", async () => {
    const copy = await createTempCopy();
    for await (const chunk of copy.tee(pieces(50))) {
      if (chunk[0] === 3) break;
    }
    expect(readFileSync(copy.path).length).toBe(4000);
    await copy.remove();
    await copy.remove();
    expect(existsSync(copy.path)).toBe(false);
  });
});
