import { describe, expect, it } from "vitest";
import { createBoundedCache, createRecentMap } from "./bounded-cache";

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

describe("createRecentMap", () => {
  it("keeps at most `max` entries; putting a key again makes it the most recent, and the least recent goes", () => {
    const map = createRecentMap<string, number>(2);
    map.put("a", 1);
    map.put("b", 2);
    map.put("a", 3); // "a" replaced and now the most recent: "b" is the least recent
    map.put("c", 4);
    expect([map.get("a"), map.get("b"), map.get("c"), map.size]).toEqual([3, undefined, 4, 2]);
    // get does not reorder: "a" is still the least recent.
    expect(map.get("a")).toBe(3);
    map.put("d", 5);
    expect([map.get("a"), map.get("c"), map.get("d")]).toEqual([undefined, 4, 5]);
  });
});
