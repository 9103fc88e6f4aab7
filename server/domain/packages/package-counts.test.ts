/**
 * Protects the exact `totalCount` of the packages list when it comes from the counters (package_counts and
 * package_count_deltas, kept by the triggers of migration 0010 and folded by the fold-package-counts job)
 * instead of `count(*)`: after inserts (one row and many per statement), status changes, first views, soft and
 * hard deletes, updates that change no bucket, a rolled-back transaction and TRUNCATE, every filter of the
 * list (all, each status, VIEWED) equals `count(*)` over the live packages, before and after folding, per
 * workspace. On PostgreSQL the same holds with concurrent writers and two folding workers running at once.
 */
import { and, count, eq, inArray, isNotNull, isNull, sql, type SQL } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { GET as listRoute } from "@/app/api/v1/packages/route";
import { openPostgres, type Db, type DbHandle } from "@/server/db/client";
import { packageCountDeltas, packageCounts, packages, PACKAGE_STATUSES, type TPackageStatus } from "@/server/db/schema";
import { runDeclaredJob } from "@/server/jobs/run-declared-job";
import { newId } from "@/server/lib/ids";
import { useTestDb } from "@/server/test/db";
import { createTestKey, createTestOrg, createTestRole, createTestWorkspace, type TTestOrg } from "@/server/test/factories";
import { callJson } from "@/server/test/http";
import { countPackages } from "./count-packages";
import { packageJobs } from "./jobs";

const t = useTestDb();

const FILTERS = [undefined, ...PACKAGE_STATUSES, "VIEWED"] as const;

async function fold(handle: DbHandle = t.handle) {
  await runDeclaredJob(packageJobs().foldCounts).run(handle, new AbortController().signal);
}

/** `count(*)` of what the list shows for a filter, the reference the counters must equal. */
async function counted(db: Db, workspaceId: string, status: (typeof FILTERS)[number]) {
  const where: SQL[] = [eq(packages.workspaceId, workspaceId), isNull(packages.deletedAt)];
  if (status === "VIEWED") where.push(eq(packages.status, "IN_PROGRESS"), isNotNull(packages.firstViewedAt));
  else if (status) where.push(eq(packages.status, status));
  const [row] = await db
    .select({ n: count() })
    .from(packages)
    .where(and(...where));
  return row!.n;
}

async function expectExact(db: Db, workspaceId: string) {
  const got: Record<string, number> = {};
  const want: Record<string, number> = {};
  for (const f of FILTERS) {
    got[f ?? "all"] = await countPackages(db, workspaceId, f);
    want[f ?? "all"] = await counted(db, workspaceId, f);
  }
  expect(got).toEqual(want);
  return got;
}

function rows(org: TTestOrg, workspaceId: string, n: number, status: TPackageStatus = "DRAFT") {
  return Array.from({ length: n }, (_, i) => ({
    id: newId("pkg"),
    organisationId: org.organisationId,
    workspaceId,
    ownerUserId: org.userId,
    title: `Lease ${i}`,
    status,
  }));
}

async function pendingDeltas(db: Db) {
  const [row] = await db.select({ n: count() }).from(packageCountDeltas);
  return row!.n;
}

describe("package counters", () => {
  it("stay exact through inserts, status changes, views, soft and hard deletes, before and after folding", async () => {
    const org = await createTestOrg(t.db);
    const other = await createTestWorkspace(t.db, org.organisationId, "other");
    const ws = org.workspaceId;

    const made = rows(org, ws, 12);
    await t.db.insert(packages).values(made);
    await t.db.insert(packages).values(rows(org, other, 3, "IN_PROGRESS"));
    expect(await expectExact(t.db, ws)).toMatchObject({ all: 12, DRAFT: 12, IN_PROGRESS: 0 });
    expect(await expectExact(t.db, other)).toMatchObject({ all: 3, IN_PROGRESS: 3 });

    const ids = made.map((r) => r.id);
    await t.db
      .update(packages)
      .set({ status: "IN_PROGRESS" })
      .where(inArray(packages.id, ids.slice(0, 6)));
    await t.db
      .update(packages)
      .set({ firstViewedAt: new Date() })
      .where(inArray(packages.id, ids.slice(0, 2)));
    await t.db.update(packages).set({ status: "COMPLETED" }).where(eq(packages.id, ids[0]!));
    await t.db.update(packages).set({ status: "ON_HOLD" }).where(eq(packages.id, ids[2]!));
    await t.db.update(packages).set({ status: "IN_PROGRESS" }).where(eq(packages.id, ids[2]!));
    expect(await expectExact(t.db, ws)).toMatchObject({ all: 12, DRAFT: 6, IN_PROGRESS: 5, VIEWED: 1, COMPLETED: 1, ON_HOLD: 0 });

    // An update of nothing a count reads (updatedAt): nothing appended.
    const before = await pendingDeltas(t.db);
    await t.db.update(packages).set({ updatedAt: new Date() }).where(eq(packages.workspaceId, ws));
    expect(await pendingDeltas(t.db)).toBe(before);
    // A rename changes no total, but may change a search's count: one delta of 0 per bucket renamed in
    // (DRAFT, IN_PROGRESS, IN_PROGRESS viewed, COMPLETED), for the searches' remembered counts.
    await t.db.update(packages).set({ title: "Renamed", updatedAt: new Date() }).where(eq(packages.workspaceId, ws));
    expect(await pendingDeltas(t.db)).toBe(before + 4);
    expect(await expectExact(t.db, ws)).toMatchObject({ all: 12, DRAFT: 6, IN_PROGRESS: 5, VIEWED: 1, COMPLETED: 1 });

    await fold();
    expect(await pendingDeltas(t.db)).toBe(0);
    expect(await expectExact(t.db, ws)).toMatchObject({ all: 12 });

    // Soft delete, hard delete, a delete of a soft-deleted row (already uncounted), an undelete.
    await t.db
      .update(packages)
      .set({ deletedAt: new Date() })
      .where(inArray(packages.id, ids.slice(3, 6)));
    await t.db.delete(packages).where(inArray(packages.id, [ids[6]!, ids[3]!]));
    expect(await expectExact(t.db, ws)).toMatchObject({ all: 8, IN_PROGRESS: 2, DRAFT: 5 });
    await t.db.update(packages).set({ deletedAt: null }).where(eq(packages.id, ids[4]!));
    expect(await expectExact(t.db, ws)).toMatchObject({ all: 9, IN_PROGRESS: 3 });
    await fold();
    expect(await expectExact(t.db, ws)).toMatchObject({ all: 9, IN_PROGRESS: 3, VIEWED: 1 });
    expect(await expectExact(t.db, other)).toMatchObject({ all: 3 });

    // A rolled-back transaction leaves no delta.
    const pending = await pendingDeltas(t.db);
    await expect(
      t.db.transaction(async (tx) => {
        await tx.insert(packages).values(rows(org, ws, 5));
        await tx.update(packages).set({ status: "VOID" }).where(eq(packages.workspaceId, ws));
        throw new Error("rolled back");
      }),
    ).rejects.toThrow("rolled back");
    expect(await pendingDeltas(t.db)).toBe(pending);
    expect(await expectExact(t.db, ws)).toMatchObject({ all: 9 });

    // TRUNCATE (the tests' reset) empties the counters with the packages.
    await t.db.execute(sql`truncate ${packages} cascade`);
    expect(await t.db.select().from(packageCounts)).toEqual([]);
    expect(await expectExact(t.db, ws)).toMatchObject({ all: 0 });
  });

  it("give the list's totalCount for every filter; search and restricted visibility count their matches", async () => {
    const org = await createTestOrg(t.db);
    const key = await createTestKey(t.db, org);
    const values = rows(org, org.workspaceId, 30);
    values.forEach((v, i) => Object.assign(v, { title: i % 3 === 0 ? `Tenancy ${i}` : `Invoice ${i}`, status: i % 2 ? "IN_PROGRESS" : "DRAFT" }));
    await t.db.insert(packages).values(values);
    await t.db.update(packages).set({ deletedAt: new Date() }).where(eq(packages.id, values[0]!.id));
    await fold();
    await t.db.update(packages).set({ firstViewedAt: new Date() }).where(eq(packages.id, values[1]!.id));
    type TList = { data: { totalCount: number; packages: unknown[] } };
    const list = (query: Record<string, string | number>) => callJson<TList>(listRoute, { key: key.value, query });
    expect((await list({})).body.data.totalCount).toBe(29);
    expect((await list({ status: "DRAFT", pageSize: 5 })).body.data).toMatchObject({ totalCount: 14 });
    expect((await list({ status: "IN_PROGRESS" })).body.data.totalCount).toBe(15);
    expect((await list({ status: "VIEWED" })).body.data.totalCount).toBe(1);
    expect((await list({ search: "TENANCY" })).body.data.totalCount).toBe(9);
    expect((await list({ search: "tenancy", status: "DRAFT", page: 99 })).body.data).toMatchObject({ totalCount: 4, packages: [] });
    // Without canViewAllPackages the total is counted over what the key may see (its issuer owns them all here).
    const restricted = await createTestKey(t.db, org, { roleId: await createTestRole(t.db, org.organisationId, { canViewAllPackages: false }) });
    const seen = await callJson<TList>(listRoute, { key: restricted.value, query: { status: "IN_PROGRESS" } });
    expect(seen.body.data.totalCount).toBe(15);
  });
});

describe.runIf(Boolean(process.env.DATABASE_URL))("package counters on PostgreSQL", () => {
  it("stay exact under concurrent writers and two folding workers", async () => {
    const org = await createTestOrg(t.db);
    const ws = org.workspaceId;
    const handles = await Promise.all([0, 1].map(() => openPostgres(t.url, { max: 4 })));
    const statuses = ["IN_PROGRESS", "ON_HOLD", "COMPLETED", "VOID"] as const;
    try {
      let folding = true;
      const folder = async (h: DbHandle) => {
        while (folding) await fold(h);
      };
      const writer = async (h: DbHandle, w: number) => {
        for (let i = 0; i < 20; i++) {
          await h.db.transaction(async (tx) => {
            const made = rows(org, ws, 1 + ((w + i) % 3));
            await tx.insert(packages).values(made);
            await tx
              .update(packages)
              .set({ status: statuses[(w + i) % 4]!, firstViewedAt: i % 2 ? new Date() : null })
              .where(eq(packages.id, made[0]!.id));
            // Another writer's package too: the rows' locks interleave across transactions.
            const [victim] = await tx
              .select({ id: packages.id })
              .from(packages)
              .where(and(eq(packages.workspaceId, ws), isNull(packages.deletedAt)))
              .orderBy(sql`random()`)
              .limit(1)
              .for("update", { skipLocked: true });
            if (victim && i % 3 === 0) await tx.update(packages).set({ deletedAt: new Date() }).where(eq(packages.id, victim.id));
            else if (victim) await tx.update(packages).set({ status: "DECLINED" }).where(eq(packages.id, victim.id));
          });
        }
      };
      const folders = [folder(handles[0]!), folder(handles[1]!)];
      await Promise.all([0, 1, 2, 3, 4, 5].map((w) => writer(handles[w % 2]!, w)));
      folding = false;
      await Promise.all(folders);
      expect((await expectExact(t.db, ws)).all).toBeGreaterThan(100);
      await fold();
      expect(await pendingDeltas(t.db)).toBe(0);
      await expectExact(t.db, ws);
    } finally {
      await Promise.all(handles.map((h) => h.close()));
    }
  });
});
