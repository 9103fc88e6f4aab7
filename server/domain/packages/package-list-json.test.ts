/**
 * The packages list's JSON is written by PostgreSQL (package-list-json.ts) instead of passing the declared
 * schema: it must be exactly what the schema's output for `listPackages`' rows stringifies to, byte for byte —
 * for every field, set and null, for metadata keys in JavaScript's order, and for text that needs escaping.
 */
import { describe, expect, it } from "vitest";
import { packageShares, packages, recipientSessions } from "@/server/db/schema";
import { newId } from "@/server/lib/ids";
import { ownerActor } from "@/server/test/actors";
import { useTestDb } from "@/server/test/db";
import { createTestOrg } from "@/server/test/factories";
import { listPackages, listPackagesJson } from "./list-packages";
import { packageListPageJson } from "./package-list-json";
import { ZPackageList } from "./schemas";

const t = useTestDb();

const viaSchema = (list: Awaited<ReturnType<typeof listPackages>>) => JSON.stringify(ZPackageList.parse(list));

/** Every character JSON.stringify escapes that text can hold, and some it must not escape. */
const hostile = 'q " b \\ / \b \f \n \r \t \u0001 \u001f \u007f \u2028 \u2029 é ß 中 😀 </script> \\u0041 end';

describe("listPackagesJson", () => {
  it("writes what the schema's output of listPackages stringifies to, byte for byte", async () => {
    const org = await createTestOrg(t.db);
    const at = (d: number) => new Date(Date.UTC(2030, 0, d, 12, 0, 0, 123));
    const ids = [newId("pkg"), newId("pkg"), newId("pkg"), newId("pkg")];
    const base = { organisationId: org.organisationId, workspaceId: org.workspaceId, ownerUserId: org.userId };
    await t.db.insert(packages).values([
      { ...base, id: ids[0]!, title: 'Lease "é" \\ 😀', status: "DRAFT", updatedAt: at(1) },
      {
        ...base,
        id: ids[1]!,
        title: hostile,
        status: "IN_PROGRESS",
        externalId: hostile,
        // Integer-like keys come first in JavaScript (ascending), the others in jsonb's stored order.
        metadata: {
          b: "2",
          a: hostile,
          "10": "ten",
          "2": "two",
          "01": "not an index",
          "4294967294": "max index",
          "4294967295": "not an index",
          é: "",
          "": "empty key",
        },
        sequential: true,
        sendAt: at(2),
        scheduleError: hostile,
        expiresAt: at(9),
        expiredAt: at(10),
        sentAt: at(2),
        firstViewedAt: at(3),
        completedAt: at(4),
        declinedAt: at(5),
        voidedAt: at(6),
        createdAt: new Date(Date.UTC(1999, 11, 31, 23, 59, 59, 7)),
        updatedAt: at(4),
      },
      { ...base, id: ids[2]!, title: "Void", status: "VOID", voidedAt: at(5), updatedAt: at(5), metadata: { deal: "42" } },
      // A lone surrogate cannot be stored: both drivers send it as U+FFFD.
      { ...base, id: ids[3]!, title: "lone \ud800 surrogate", status: "DRAFT", updatedAt: at(6) },
    ]);
    await t.db.insert(recipientSessions).values(
      [0, 1].map((i) => ({
        id: newId("ses"),
        packageId: ids[1]!,
        email: `r${i}@example.com`,
        name: `R ${i}`,
        position: i + 1,
        status: i === 0 ? ("COMPLETED" as const) : ("PENDING" as const),
      })),
    );
    await t.db.insert(packageShares).values({ id: newId("shr"), packageId: ids[0]!, userId: org.userId });
    for (const query of [
      { page: 1, pageSize: 25 },
      { page: 1, pageSize: 2 },
      { page: 2, pageSize: 2 },
      { page: 9, pageSize: 2 },
      { page: 1, pageSize: 2, search: "e" },
      { page: 2, pageSize: 2, search: "e" },
      { page: 1, pageSize: 25, search: "\\" },
      { page: 1, pageSize: 25, status: "VOID" as const },
      { page: 1, pageSize: 25, status: "VIEWED" as const },
    ]) {
      const list = await listPackages(t.db, ownerActor(org), query);
      expect(await listPackagesJson(t.db, ownerActor(org), query)).toBe(viaSchema(list));
    }
    const list = await listPackages(t.db, ownerActor(org), { page: 1, pageSize: 25 });
    expect(list.packages.map((p) => p.id)).toEqual([ids[3], ids[2], ids[1], ids[0]]);
    expect(list.packages[0]!.title).toBe("lone \ufffd surrogate");
    expect(list.packages[2]!.title).toBe(hostile);
    // JavaScript's order of the parsed jsonb: array indexes ascending, then jsonb's (shorter first, then bytes).
    expect(Object.keys(list.packages[2]!.metadata)).toEqual(["2", "10", "4294967294", "", "a", "b", "01", "é", "4294967295"]);
    expect(list.packages[2]!.recipientCounts).toEqual({ total: 2, completed: 1 });
    // Every field of the summary is written: the schema's keys, in its order.
    const json = JSON.parse(await listPackagesJson(t.db, ownerActor(org), { page: 1, pageSize: 25 }));
    expect(Object.keys(json.packages[2])).toEqual(Object.keys(ZPackageList.shape.packages.element.shape));
    expect(json.packages[2].title).toBe(hostile);
  });

  it("refuses what the schema refuses: a count that is not an integer", () => {
    expect(packageListPageJson([], 0, 7, 100)).toBe(viaSchema({ packages: [], totalCount: 0, page: 7, pageSize: 100 }));
    expect(() => packageListPageJson([], 1.5, 1, 1)).toThrow();
    expect(() => packageListPageJson([], Number.NaN, 1, 1)).toThrow();
  });
});
