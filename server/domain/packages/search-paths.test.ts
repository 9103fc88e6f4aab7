/**
 * The remembered path of a search (search-paths.ts): the walk when most titles match, the trigram index when
 * few do, and the workspace's size asked only when the number of matches changes.
 */
import { describe, expect, it } from "vitest";
import type { Db } from "@/server/db/client";
import { noteSearchMatches, rememberedSearchPath, searchPathFor } from "./search-paths";

describe("search paths", () => {
  it("walks when the window fills after fewer rows than there are matches, else reads the matches", () => {
    // bench:packages at a million: "rental" (one title in ten) and "harbour" (20 titles), first page of 25.
    expect(searchPathFor({ matches: 100_000, total: 1_000_000 }, 25)).toBe("walk");
    expect(searchPathFor({ matches: 20, total: 1_000_000 }, 25)).toBe("trigram");
    // A deep page of a broad search: 100 × 1,000 ÷ 100 = 1,000 rows walked against 100 matches.
    expect(searchPathFor({ matches: 100, total: 1_000 }, 100)).toBe("trigram");
    expect(searchPathFor({ matches: 100, total: 1_000 }, 9)).toBe("walk");
    expect(searchPathFor({ matches: 0, total: 1_000 }, 25)).toBe("trigram");
  });

  it("asks for the workspace's size only when the number of matches changes", async () => {
    const db = {} as Db;
    let asked = 0;
    const total = (n: number) => async () => (asked++, n);
    expect(rememberedSearchPath(db, "ws\u0000rental", 25)).toBeUndefined();
    await noteSearchMatches(db, "ws\u0000rental", 1_000, total(10_000));
    await noteSearchMatches(db, "ws\u0000rental", 1_000, total(10_000));
    expect({ asked, path: rememberedSearchPath(db, "ws\u0000rental", 25) }).toEqual({ asked: 1, path: "walk" });
    await noteSearchMatches(db, "ws\u0000rental", 3, total(10_000));
    expect({ asked, path: rememberedSearchPath(db, "ws\u0000rental", 25) }).toEqual({ asked: 2, path: "trigram" });
    // Another handle remembers nothing of this one.
    expect(rememberedSearchPath({} as Db, "ws\u0000rental", 25)).toBeUndefined();
  });
});
