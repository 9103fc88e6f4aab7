/**
 * A search's totalCount past a full page is counted once and then remembered while no package of the
 * workspace changes (search-count-cache.ts). This checks that it stays exact — equal to a plain count(*) of
 * the matches — after every kind of change that can move a count (a new package, a rename in and out of the
 * search, a soft delete, a first view, two packages swapping statuses in one statement, a fold of the
 * deltas), that it is remembered (not counted again) across changes that cannot (another workspace, an
 * updatedAt bump, a rolled-back rename), that a TRUNCATE is not missed, and on PostgreSQL that a change already running when the count was
 * taken is seen once it commits, folded or not.
 */
import { and, count, eq, ilike, inArray, isNotNull, isNull, sql, type SQL } from "drizzle-orm";
import postgres from "postgres";
import { describe, expect, it } from "vitest";
import { type Db } from "@/server/db/client";
import { packages, type TPackageStatus } from "@/server/db/schema";
import { runDeclaredJob } from "@/server/jobs/run-declared-job";
import { newId } from "@/server/lib/ids";
import { createTestMember, ownerActor } from "@/server/test/actors";
import { useTestDb } from "@/server/test/db";
import { createTestOrg, createTestRole, createTestWorkspace, type TTestOrg } from "@/server/test/factories";
import { packageJobs } from "./jobs";
import { listPackages } from "./list-packages";
import { searchCountCacheStats } from "./search-count-cache";

const t = useTestDb();

type TFilter = TPackageStatus | "VIEWED" | undefined;

/** The reference: a plain count of what the list shows for a search and filter. */
async function counted(db: Db, workspaceId: string, search: string, status: TFilter): Promise<number> {
  const where: SQL[] = [eq(packages.workspaceId, workspaceId), isNull(packages.deletedAt), ilike(packages.title, `%${search}%`)];
  if (status === "VIEWED") where.push(eq(packages.status, "IN_PROGRESS"), isNotNull(packages.firstViewedAt));
  else if (status) where.push(eq(packages.status, status));
  const [row] = await db
    .select({ n: count() })
    .from(packages)
    .where(and(...where));
  return row!.n;
}

function made(org: TTestOrg, workspaceId: string, title: string, status: TPackageStatus = "IN_PROGRESS") {
  return { id: newId("pkg"), organisationId: org.organisationId, workspaceId, ownerUserId: org.userId, title, status };
}

/** Lists page 1 of 5 (always full here, so the total cannot come from the page) and checks the total. */
async function expectTotal(org: TTestOrg, search: string, status?: TFilter) {
  const list = await listPackages(t.db, ownerActor(org), { page: 1, pageSize: 5, search, ...(status ? { status } : {}) });
  expect(list.packages).toHaveLength(5);
  expect(list.totalCount).toBe(await counted(t.db, org.workspaceId, search, status));
  return list.totalCount;
}

/** Runs `step` and returns how many remembered counts it used and how many it counted again. */
async function tally(step: () => Promise<unknown>) {
  const before = searchCountCacheStats(t.db);
  await step();
  const after = searchCountCacheStats(t.db);
  return { hits: after.hits - before.hits, misses: after.misses - before.misses };
}

const fold = () => runDeclaredJob(packageJobs().foldCounts).run(t.handle, new AbortController().signal);

describe("a search's remembered count", () => {
  it("stays exact after every change that can move it, and is reused across changes that cannot", async () => {
    const org = await createTestOrg(t.db);
    const other = await createTestWorkspace(t.db, org.organisationId, "other");
    // Odd rentals are IN_PROGRESS (ten), six of them viewed already; even ones COMPLETED. Every page is full.
    const rentals = Array.from({ length: 20 }, (_, i) => ({
      ...made(org, org.workspaceId, `Rental ${i}`, i % 2 ? "IN_PROGRESS" : "COMPLETED"),
      firstViewedAt: i % 2 && i >= 7 && i <= 17 ? new Date() : null,
    }));
    const loans = Array.from({ length: 8 }, (_, i) => made(org, org.workspaceId, `Loan ${i}`, i % 2 ? "IN_PROGRESS" : "COMPLETED"));
    await t.db.insert(packages).values([...rentals, ...loans, made(org, other, "Rental elsewhere")]);
    await fold();

    expect(await tally(() => expectTotal(org, "rental"))).toEqual({ hits: 0, misses: 1 });
    expect(await tally(() => expectTotal(org, "rental"))).toEqual({ hits: 1, misses: 0 });
    // Concurrent requests all use it (none finds it missing while another checks it).
    expect(await tally(() => Promise.all(Array.from({ length: 8 }, () => expectTotal(org, "rental"))))).toEqual({ hits: 8, misses: 0 });
    expect(await tally(() => expectTotal(org, "RENTAL"))).toEqual({ hits: 0, misses: 1 }); // another search, its own count
    expect(await tally(() => expectTotal(org, "rental", "IN_PROGRESS"))).toEqual({ hits: 0, misses: 1 });

    // Changes that cannot move it: another workspace, a bump of updatedAt, a rename rolled back.
    await t.db.insert(packages).values(made(org, other, "Rental two"));
    await t.db.update(packages).set({ updatedAt: new Date() }).where(eq(packages.id, rentals[0]!.id));
    await t.db
      .transaction(async (tx) => {
        await tx.update(packages).set({ title: "Lease" }).where(eq(packages.id, rentals[1]!.id));
        tx.rollback();
      })
      .catch(() => {});
    expect(await tally(() => expectTotal(org, "rental"))).toEqual({ hits: 1, misses: 0 });
    expect(await tally(() => expectTotal(org, "rental", "IN_PROGRESS"))).toEqual({ hits: 1, misses: 0 });

    // Each change that can: the count is taken again, equals the reference, and moved as it should.
    const changes: [string, () => Promise<unknown>, TFilter, number][] = [
      ["a new matching package", () => t.db.insert(packages).values(made(org, org.workspaceId, "rental, short")), undefined, +1],
      ["a rename into the search", () => t.db.update(packages).set({ title: "Loan → rental" }).where(eq(packages.id, loans[0]!.id)), undefined, +1],
      ["a rename out of it", () => t.db.update(packages).set({ title: "Lease" }).where(eq(packages.id, rentals[2]!.id)), undefined, -1],
      ["a soft delete", () => t.db.update(packages).set({ deletedAt: new Date() }).where(eq(packages.id, rentals[4]!.id)), undefined, -1],
      ["a fold of those deltas", fold, undefined, 0],
      ["a first view", () => t.db.update(packages).set({ firstViewedAt: new Date() }).where(eq(packages.id, rentals[3]!.id)), "VIEWED", +1],
      [
        // Net zero in every bucket (one package each way), but one IN_PROGRESS rental fewer.
        "two packages swapping statuses in one statement",
        () =>
          t.db
            .update(packages)
            .set({ status: sql`case when ${packages.id} = ${rentals[5]!.id} then 'COMPLETED' else 'IN_PROGRESS' end` })
            .where(inArray(packages.id, [rentals[5]!.id, loans[2]!.id])),
        "IN_PROGRESS",
        -1,
      ],
    ];
    for (const [what, change, status, moves] of changes) {
      const before = await expectTotal(org, "rental", status); // remembered, or counted now
      expect(await tally(() => expectTotal(org, "rental", status)), `before ${what}`).toEqual({ hits: 1, misses: 0 });
      await change();
      const after = await tally(async () => expect(await expectTotal(org, "rental", status), what).toBe(before + moves));
      expect(after, what).toEqual({ hits: 0, misses: 1 });
    }

    // TRUNCATE (the tests' reset) empties the counters without a delta: a remembered count of a workspace
    // left without counter rows is not trusted. Page 2, so the empty page itself cannot tell the total.
    await expectTotal(org, "rental");
    await t.db.execute(sql`truncate ${packages} cascade`);
    const emptied = await tally(async () => expect((await listPackages(t.db, ownerActor(org), { page: 2, pageSize: 5, search: "rental" })).totalCount).toBe(0));
    expect(emptied).toEqual({ hits: 0, misses: 1 });
  });

  it("is not used for a member who sees only their own packages", async () => {
    const org = await createTestOrg(t.db);
    const narrow = await createTestRole(t.db, org.organisationId, { canViewAllPackages: false });
    const member = await createTestMember(t.db, org, narrow);
    await t.db.insert(packages).values(Array.from({ length: 7 }, (_, i) => ({ ...made(org, org.workspaceId, `Rental ${i}`), ownerUserId: member.user.id })));
    for (let i = 0; i < 2; i++) {
      const step = await tally(async () => {
        const list = await listPackages(t.db, member, { page: 1, pageSize: 5, search: "rental" });
        expect(list.totalCount).toBe(7);
      });
      expect(step).toEqual({ hits: 0, misses: 0 });
    }
  });
});

describe.runIf(Boolean(process.env.DATABASE_URL))("a search's remembered count on PostgreSQL", () => {
  it("sees a change that was running when it was counted, once it commits, folded or not", async () => {
    const org = await createTestOrg(t.db);
    await t.db.insert(packages).values(Array.from({ length: 9 }, (_, i) => made(org, org.workspaceId, `Rental ${i}`)));
    const writer = postgres(t.url, { max: 1, onnotice: () => {} });
    const insertOne = (title: string) =>
      writer.unsafe(`insert into packages (id, organisation_id, workspace_id, owner_user_id, title, status) values ($1, $2, $3, $4, $5, 'IN_PROGRESS')`, [
        newId("pkg"),
        org.organisationId,
        org.workspaceId,
        org.userId,
        title,
      ]);
    try {
      for (const foldFirst of [false, true]) {
        const before = await counted(t.db, org.workspaceId, "rental", undefined);
        await writer.unsafe("begin");
        await insertOne(`Rental in flight ${foldFirst}`);
        // Counted (or checked) while the insert runs: it is not part of this count.
        await tally(() => expectTotal(org, "rental"));
        expect(await tally(async () => expect(await expectTotal(org, "rental")).toBe(before))).toEqual({ hits: 1, misses: 0 });
        await writer.unsafe("commit");
        if (foldFirst) await fold(); // its delta is gone, folded into a counter row the fold wrote
        expect(await tally(async () => expect(await expectTotal(org, "rental")).toBe(before + 1))).toEqual({ hits: 0, misses: 1 });
      }
    } finally {
      await writer.end();
    }
  });
});
