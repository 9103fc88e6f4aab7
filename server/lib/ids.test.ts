/**
 * One id format per table (issue 9): rows made in TypeScript and rows made in bulk by SQL (the fan-out's
 * deliveries, the attempt log of lost attempts) used to carry two different formats in one table. Both
 * generators must produce the same shape, and time-ordered ids must sort across the two.
 */
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { queryRows } from "@/server/db/client";
import { useTestDb } from "@/server/test/db";
import { ID_PATTERN, newId, sqlNewId } from "./ids";

const t = useTestDb();

describe("ids", () => {
  it("newId and sqlNewId make the same format, and both sort by time", async () => {
    const before = newId("whd");
    await new Promise((r) => setTimeout(r, 5));
    const [row] = await queryRows<{ id: string }>(t.db, sql`select ${sqlNewId("whd")} as id`);
    await new Promise((r) => setTimeout(r, 5));
    const after = newId("whd");
    for (const id of [before, row!.id, after]) expect(id).toMatch(ID_PATTERN);
    expect([after, row!.id, before].sort()).toEqual([before, row!.id, after]);
  });

  it("draws distinct random parts and refuses an unsafe prefix in SQL", () => {
    const ids = new Set(Array.from({ length: 1000 }, () => newId("x")));
    expect(ids.size).toBe(1000);
    expect(() => sqlNewId("wha'; drop table x; --")).toThrow(/invalid id prefix/);
  });
});
