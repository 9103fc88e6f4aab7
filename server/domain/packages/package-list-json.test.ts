/**
 * The packages list's JSON is written directly (package-list-json.ts) instead of passing the declared schema:
 * it must be exactly what the schema's output stringifies to, byte for byte — for every field, set and null,
 * for text that needs escaping, and for a page read from the database.
 */
import { describe, expect, it } from "vitest";
import { packageShares, packages, recipientSessions } from "@/server/db/schema";
import { newId } from "@/server/lib/ids";
import { ownerActor } from "@/server/test/actors";
import { useTestDb } from "@/server/test/db";
import { createTestOrg } from "@/server/test/factories";
import { listPackages } from "./list-packages";
import { packageListJson } from "./package-list-json";
import { ZPackageList } from "./schemas";

const t = useTestDb();

type TList = Parameters<typeof packageListJson>[0];
const viaSchema = (list: TList) => JSON.stringify(ZPackageList.parse(list));

const full: TList["packages"][number] = {
  id: "pkg_1",
  title: 'Lease "A" \\ line\nbreak \u0000 tab\t \u2028 é 😀 \ud800 end',
  status: "IN_PROGRESS",
  externalId: "ext-</script>",
  metadata: { b: "2", a: 'quote " and \\', "1": "numeric key first", empty: "" },
  templateId: "tpl_1",
  ownerUserId: "usr_1",
  sequential: true,
  sendAt: "2030-01-01T12:00:00.000Z",
  scheduleError: "No credit left",
  expiresAt: "2030-01-02T12:00:00.000Z",
  expiredAt: "2030-01-03T12:00:00.000Z",
  sentAt: "2030-01-04T12:00:00.000Z",
  firstViewedAt: "2030-01-05T12:00:00.000Z",
  completedAt: "2030-01-06T12:00:00.000Z",
  declinedAt: "2030-01-07T12:00:00.000Z",
  voidedAt: "2030-01-08T12:00:00.000Z",
  createdAt: "2030-01-09T12:00:00.000Z",
  updatedAt: "2030-01-10T12:00:00.000Z",
  recipientCounts: { total: 3, completed: 2 },
};
const empty: TList["packages"][number] = {
  ...full,
  id: "pkg_2",
  title: "",
  status: "DRAFT",
  externalId: null,
  metadata: {},
  templateId: null,
  sequential: false,
  sendAt: null,
  scheduleError: null,
  expiresAt: null,
  expiredAt: null,
  sentAt: null,
  firstViewedAt: null,
  completedAt: null,
  declinedAt: null,
  voidedAt: null,
  recipientCounts: { total: 0, completed: 0 },
};

describe("packageListJson", () => {
  it("writes what the schema's output stringifies to, byte for byte", () => {
    for (const list of [
      { packages: [full, empty], totalCount: 1_000_000, page: 3, pageSize: 25 },
      { packages: [empty], totalCount: 1, page: 1, pageSize: 1 },
      { packages: [], totalCount: 0, page: 7, pageSize: 100 },
    ]) {
      expect(packageListJson(list)).toBe(viaSchema(list));
    }
    // Every field of the summary is written: the schema's keys, in its order.
    expect(Object.keys(JSON.parse(packageListJson({ packages: [full], totalCount: 1, page: 1, pageSize: 1 })).packages[0])).toEqual(
      Object.keys(ZPackageList.shape.packages.element.shape),
    );
  });

  it("refuses what the schema refuses: a count that is not an integer", () => {
    expect(() => packageListJson({ packages: [{ ...full, recipientCounts: { total: 1.5, completed: 0 } }], totalCount: 1, page: 1, pageSize: 1 })).toThrow();
    expect(() => packageListJson({ packages: [], totalCount: Number.NaN, page: 1, pageSize: 1 })).toThrow();
  });

  it("matches the schema's JSON for a page read from the database", async () => {
    const org = await createTestOrg(t.db);
    const at = (d: number) => new Date(Date.UTC(2030, 0, d, 12, 0, 0, 123));
    const ids = [newId("pkg"), newId("pkg"), newId("pkg")];
    await t.db.insert(packages).values([
      {
        id: ids[0]!,
        organisationId: org.organisationId,
        workspaceId: org.workspaceId,
        ownerUserId: org.userId,
        title: 'Lease "é" \\ 😀',
        status: "DRAFT",
        updatedAt: at(1),
      },
      {
        id: ids[1]!,
        organisationId: org.organisationId,
        workspaceId: org.workspaceId,
        ownerUserId: org.userId,
        title: "Sent",
        status: "IN_PROGRESS",
        externalId: "crm-42",
        metadata: { deal: "42", note: 'a "b"' },
        sequential: false,
        sentAt: at(2),
        firstViewedAt: at(3),
        expiresAt: at(9),
        updatedAt: at(4),
      },
      {
        id: ids[2]!,
        organisationId: org.organisationId,
        workspaceId: org.workspaceId,
        ownerUserId: org.userId,
        title: "Void",
        status: "VOID",
        voidedAt: at(5),
        updatedAt: at(5),
      },
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
      { page: 2, pageSize: 2, search: "e" },
      { page: 1, pageSize: 25, status: "VOID" as const },
    ]) {
      const list = await listPackages(t.db, ownerActor(org), query);
      expect(packageListJson(list)).toBe(viaSchema(list));
    }
    const list = await listPackages(t.db, ownerActor(org), { page: 1, pageSize: 25 });
    expect(list.packages.map((p) => p.id)).toEqual([ids[2], ids[1], ids[0]]);
    expect(list.packages[1]!.recipientCounts).toEqual({ total: 2, completed: 1 });
  });
});
