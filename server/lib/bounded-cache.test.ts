import { describe, expect, it } from "vitest";
import { createBoundedCache } from "./bounded-cache";

describe("createBoundedCache", () => {
  it("makes a value once per key, keeps at most `max`, and hands the oldest to onEvict when full", () => {
    const evicted: string[] = [];
    const cache = createBoundedCache<string, string>(2, (v) => evicted.push(v));
    let made = 0;
    const make = (k: string) => () => `${k}${++made}`;
    expect(cache.get("a", make("a"))).toBe("a1");
    expect(cache.get("a", make("a"))).toBe("a1");
    expect(cache.get("b", make("b"))).toBe("b2");
    expect(evicted).toEqual([]);
    expect(cache.get("c", make("c"))).toBe("c3");
    expect(evicted).toEqual(["a1"]);
    // "a" was evicted: it is made again (and "b", now the oldest, goes).
    expect(cache.get("a", make("a"))).toBe("a4");
    expect(evicted).toEqual(["a1", "b2"]);
    expect(cache.get("c", make("c"))).toBe("c3");
  });
});
