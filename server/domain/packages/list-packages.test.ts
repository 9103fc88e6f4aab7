/**
 * The packages list runs prepared statements, one per shape (visibility × kind of status filter × search; see
 * list-packages.ts and server/db/driver/prepared.ts), with every value a placeholder. This checks each shape against
 * a reference computed here from all the rows: the same ids in the same order (newest updatedAt first), the
 * same totalCount, pages past the first — for an admin, a restricted member and a restricted member's key, one
 * after the other with different values, so a shape built for one actor never answers with another's values.
 */
import { describe, expect, it } from "vitest";
import { eq, sql } from "drizzle-orm";
import { memberships, packages, packageShares, recipientSessions, users, type TPackageStatus } from "@/server/db/schema";
import type { TActor } from "@/server/domain/access/actor";
import { loadKeyActor } from "@/server/domain/access/load-key-actor";
import { newId } from "@/server/lib/ids";
import { ownerActor } from "@/server/test/actors";
import { useTestDb } from "@/server/test/db";
import { createTestKey, createTestOrg, createTestRole, createTestWorkspace } from "@/server/test/factories";
import postgres from "postgres";
import { drizzle } from "drizzle-orm/postgres-js";
import * as schema from "@/server/db/schema";
import { GENERIC_PLAN_SETTINGS, type Db } from "@/server/db/client";
import { installGenericPlanClient, type TDriverClient } from "@/server/db/driver";
import { countPackages } from "./count-packages";
import { listPackages } from "./list-packages";
import { toPackageSummary } from "./package-view";
import { ZPackageList } from "./schemas";

const t = useTestDb();

type TRow = {
  id: string;
  title: string;
  status: TPackageStatus;
  owner: string;
  keyId: string | null;
  viewed: boolean;
  deleted: boolean;
  updatedAt: Date;
  sharedWith: string[];
  workspaceId: string;
};

const STATUSES: TPackageStatus[] = ["DRAFT", "IN_PROGRESS", "COMPLETED", "VOID"];
const TITLES = ["Harbour lease", "Supplier contract", "harbour LEASE renewal", "100% discount_deal", "Loan"];

describe("listPackages (prepared per shape)", () => {
  it("answers every shape like a plain filter over all the rows, for each actor in turn", async () => {
    const org = await createTestOrg(t.db);
    const other = await createTestWorkspace(t.db, org.organisationId, "other");
    const narrow = await createTestRole(t.db, org.organisationId, { canViewAllPackages: false, canSendPackages: true });
    const members: string[] = [];
    for (const name of ["Ann", "Bob"]) {
      const id = newId("usr");
      await t.db.insert(users).values({ id, email: `${id}@example.com`, name, passwordHash: null });
      await t.db.insert(memberships).values({ id: newId("mem"), organisationId: org.organisationId, userId: id, roleId: narrow, isOwner: false });
      members.push(id);
    }
    const [ann, bob] = members as [string, string];
    const annKey = await createTestKey(t.db, { ...org, userId: ann }, { roleId: narrow });
    const bobKey = await createTestKey(t.db, { ...org, userId: bob }, { roleId: narrow });

    const rows: TRow[] = [];
    const base = Date.UTC(2026, 0, 1);
    for (let i = 0; i < 60; i++) {
      const owner = [org.userId, ann, bob][i % 3]!;
      rows.push({
        id: newId("pkg"),
        title: `${TITLES[i % TITLES.length]} ${i}`,
        status: STATUSES[(i >> 1) % STATUSES.length]!,
        owner,
        keyId: i % 7 === 0 ? annKey.id : i % 11 === 0 ? bobKey.id : null,
        viewed: i % 5 === 0,
        deleted: i % 13 === 12,
        updatedAt: new Date(base + ((i * 37) % 60) * 1000),
        sharedWith: i % 4 === 1 ? [ann] : i % 9 === 2 ? [bob, ann] : [],
        workspaceId: i % 10 === 9 ? other : org.workspaceId,
      });
    }
    await t.db.insert(packages).values(
      rows.map((r) => ({
        id: r.id,
        organisationId: org.organisationId,
        workspaceId: r.workspaceId,
        ownerUserId: r.owner,
        createdByApiKeyId: r.keyId,
        title: r.title,
        status: r.status,
        firstViewedAt: r.viewed ? new Date(base) : null,
        deletedAt: r.deleted ? new Date(base) : null,
        createdAt: r.updatedAt,
        updatedAt: r.updatedAt,
      })),
    );
    const shares = rows.flatMap((r) => r.sharedWith.map((userId) => ({ id: newId("shr"), packageId: r.id, userId })));
    await t.db.insert(packageShares).values(shares);

    const keyActor = async (value: string) => (await loadKeyActor(t.db, value, { requestId: "t", clientAddress: null }))!.actor;
    const actors: [string, TActor, (r: TRow) => boolean][] = [
      ["admin", ownerActor(org), () => true],
      ["Ann (member)", await memberActor(ann), (r) => r.owner === ann || r.sharedWith.includes(ann)],
      ["Ann's key", await keyActor(annKey.value), (r) => r.owner === ann || r.sharedWith.includes(ann) || r.keyId === annKey.id],
      ["Bob's key", await keyActor(bobKey.value), (r) => r.owner === bob || r.sharedWith.includes(bob) || r.keyId === bobKey.id],
      ["Bob (member)", await memberActor(bob), (r) => r.owner === bob || r.sharedWith.includes(bob)],
      ["admin in the other workspace", ownerActor(org, { id: other }), () => true],
    ];
    const filters: { status?: TPackageStatus | "VIEWED"; search?: string }[] = [
      {},
      { status: "IN_PROGRESS" },
      { status: "COMPLETED" },
      { status: "VIEWED" },
      { search: "harbour lease" },
      { search: "100%" },
      { search: "_" },
      { status: "DRAFT", search: "LEASE" },
      { status: "VIEWED", search: "loan" },
    ];
    let checked = 0;
    for (const [label, actor, sees] of actors) {
      const ws = actor.workspace.id;
      for (const f of filters) {
        const expected = rows
          .filter((r) => r.workspaceId === ws && !r.deleted && sees(r))
          .filter((r) => (f.status === "VIEWED" ? r.status === "IN_PROGRESS" && r.viewed : !f.status || r.status === f.status))
          .filter((r) => !f.search || r.title.toLowerCase().includes(f.search.toLowerCase()))
          .sort((a, b) => b.updatedAt.getTime() - a.updatedAt.getTime() || (a.id < b.id ? 1 : -1))
          .map((r) => r.id);
        for (const page of [1, 2, 30]) {
          const got = await listPackages(t.db, actor, { page, pageSize: 4, ...f });
          expect({ label, f, page, ids: got.packages.map((p) => p.id), total: got.totalCount }).toEqual({
            label,
            f,
            page,
            ids: expected.slice((page - 1) * 4, page * 4),
            total: expected.length,
          });
          checked += 1;
        }
      }
    }
    expect(checked).toBe(actors.length * filters.length * 3);
  });

  it("writes each item exactly as the package's own summary (timestamps formatted by the database)", async () => {
    const org = await createTestOrg(t.db);
    const id = newId("pkg");
    // Microseconds and a non-UTC offset: the list formats in SQL what the detail formats with Date#toISOString.
    const at = (s: string) => sql`${s}::timestamptz`;
    await t.db.insert(packages).values({
      id,
      organisationId: org.organisationId,
      workspaceId: org.workspaceId,
      ownerUserId: org.userId,
      title: "Ünïcode — lease",
      status: "IN_PROGRESS",
      externalId: "ext-1",
      metadata: { costCentre: "42", note: 'a "quoted" value' },
      sequential: true,
      scheduleError: null,
    });
    await t.db.execute(sql`update ${packages} set
      send_at = ${at("2026-03-01 10:00:00.123999+02")}, expires_at = ${at("2026-04-01 00:00:00+00")},
      sent_at = ${at("2026-03-01 08:00:00.5+00")}, first_viewed_at = ${at("2026-03-02 09:09:09.000001+00")},
      created_at = ${at("2026-02-28 23:59:59.999999-05")}, updated_at = ${at("2026-03-02 09:09:09.999+00")}
      where id = ${id}`);
    for (const [i, status] of (["COMPLETED", "SENT", "PENDING"] as const).entries()) {
      await t.db.insert(recipientSessions).values({
        id: newId("ses"),
        packageId: id,
        position: i + 1,
        roleIndex: i,
        roleName: `Signer ${i + 1}`,
        email: `r${i}@example.com`,
        name: `R ${i}`,
        status,
      });
    }
    const [row] = await t.db.select().from(packages).where(eq(packages.id, id));
    const got = await listPackages(t.db, ownerActor(org), { page: 1, pageSize: 25 });
    expect(got.totalCount).toBe(1);
    expect(got.packages).toEqual([{ ...toPackageSummary(row!), recipientCounts: { total: 3, completed: 1 } }]);
    expect(got.packages[0]!.createdAt).toBe("2026-03-01T04:59:59.999Z");
    expect(got.packages[0]!.sendAt).toBe("2026-03-01T08:00:00.123Z");
    expect(ZPackageList.parse(got)).toEqual(got);
  });

  async function memberActor(userId: string): Promise<TActor> {
    const { loadSessionActor } = await import("@/server/domain/access/load-session-actor");
    const [m] = await t.db.select().from(memberships);
    const actor = await loadSessionActor(t.db, { userId, organisationId: m!.organisationId }, {});
    if (!actor) throw new Error("member not loaded");
    return actor;
  }

  it.runIf(Boolean(process.env.DATABASE_URL))(
    "walks the indexes in the generic plans of every statement declared plan-stable, whatever the values (PostgreSQL)",
    async () => {
      // Two workspaces of very different sizes, analysed: the statistics a generic plan is costed with.
      const org = await createTestOrg(t.db);
      const small = await createTestWorkspace(t.db, org.organisationId, "small");
      const key = await createTestKey(t.db, org);
      await t.db.execute(sql`insert into packages (id, organisation_id, workspace_id, owner_user_id, title, status, first_viewed_at, created_at, updated_at)
        select 'pkg_plan_' || g, ${org.organisationId}, case when g % 50 = 0 then ${small} else ${org.workspaceId} end, ${org.userId}, 'Contract ' || g,
               (array['DRAFT','IN_PROGRESS','COMPLETED'])[g % 3 + 1], case when g % 6 = 1 then now() end, now() - make_interval(secs => g), now() - make_interval(secs => g)
        from generate_series(1, 5000) g`);
      await t.db.execute(sql`analyze packages`);

      // The same code on a handle whose generic-plan pool is traced: what it runs is what the app runs there.
      // Index reads are priced far higher than usual: the pool's settings must keep the index paths whatever the
      // costs (without them, these generic plans turn into scans and sorts here, as at a million packages).
      const EXPENSIVE_INDEXES = { random_page_cost: "400", cpu_index_tuple_cost: "1" };
      const url = t.url;
      const seen: { query: string; params: unknown[] }[] = [];
      const main = postgres(url, { max: 1, onnotice: () => {} });
      const generic = postgres(url, {
        max: 1,
        onnotice: () => {},
        connection: { ...GENERIC_PLAN_SETTINGS, ...EXPENSIVE_INDEXES },
        debug: (_c, query, params) => void seen.push({ query, params: params as unknown[] }),
      });
      try {
        const db = drizzle(main, { schema }) as unknown as Db;
        installGenericPlanClient(db, generic as unknown as TDriverClient);
        const admin = ownerActor(org);
        expect((await loadKeyActor(db, key.value, { requestId: "t", clientAddress: null }))?.actor.apiKey.id).toBe(key.id);
        for (const status of [undefined, "IN_PROGRESS", "VIEWED"] as const) {
          for (const page of [1, 3]) expect((await listPackages(db, admin, { page, pageSize: 25, status })).packages.length).toBe(25);
          expect(await countPackages(db, org.workspaceId, status)).toBeGreaterThan(0);
        }
        // A search among all of them, twice: counted and planned for its values first (main pool, not here),
        // which notes how many it matched; then its page on the generic-plan pool by the path that suits those
        // matches (search-paths.ts) — most titles match, so the newest-first walk — with the remembered count
        // re-checked by the page's own statement. A page past the end reads every match through the trigram
        // index (the walk would read the whole workspace for it) and re-checks the count in a statement of its
        // own, since no row carries the answer. A selective search takes the trigram path from its second call.
        for (let i = 0; i < 2; i++) expect((await listPackages(db, admin, { page: 1, pageSize: 25, search: "contract" })).totalCount).toBe(4900);
        expect(await listPackages(db, admin, { page: 1000, pageSize: 25, search: "contract" })).toMatchObject({ packages: [], totalCount: 4900 });
        for (let i = 0; i < 2; i++) {
          expect((await listPackages(db, admin, { page: 1, pageSize: 25, search: "contract 4242" })).packages.map((p) => p.title)).toEqual(["Contract 4242"]);
        }
        // Two pages at once, after another transaction committed: both ask about the count remembered when they
        // were sent; the first to finish remembers it again with its own, later snapshot, and the second still
        // uses its own page's answer — no re-check in a statement of its own.
        const rechecks = () => seen.filter((s) => s.query.startsWith("select (not exists")).length;
        await main.unsafe("select txid_current()");
        const before = rechecks();
        const both = await Promise.all([1, 2].map(() => listPackages(db, admin, { page: 1, pageSize: 25, search: "contract" })));
        expect({ totals: both.map((b) => b.totalCount), rechecks: rechecks() - before }).toEqual({ totals: [4900, 4900], rechecks: 0 });
        const statements = [...new Map(seen.filter((s) => !s.query.includes("pg_catalog")).map((s) => [s.query, s])).values()];
        // key lookup, the counters (three kinds), the page (three kinds), a search's page by each path (with the
        // count's re-check, and without: the selective search was never counted) and the count's re-check
        expect(statements.length).toBe(11);
        const plans: { statement: string; nodes: string[] }[] = [];
        for (const [i, s] of statements.entries()) {
          const args = s.params.map((p) => `'${String(p).replace(/'/g, "''")}'`).join(", ");
          await generic.unsafe(`prepare plan_check_${i} as ${s.query}`);
          const [row] = await generic.unsafe(`explain (format json) execute plan_check_${i}(${args})`);
          const plan = JSON.stringify(row!["QUERY PLAN"]);
          const nodes = [...plan.matchAll(/"Node Type":"([^"]+)"(?:[^{}]*?"(?:Relation|Index) Name":"([^"]+)")?/g)].map(
            (m) => `${m[1]}${m[2] ? ` on ${m[2]}` : ""}`,
          );
          plans.push({ statement: s.query, nodes });
        }
        const bad = /^(Seq Scan on (packages|api_keys|package_counts|package_count_deltas)|Sort|Hash Join|Merge Join|Gather)/;
        const trigram = plans.filter((p) => /ilike \$\d+ offset 0\) as "packages"/.test(p.statement));
        const searches = plans.filter((p) => p.statement.includes("ilike"));
        expect({ trigram: trigram.length, walk: searches.length - trigram.length }).toEqual({ trigram: 2, walk: 1 });
        for (const p of plans) {
          const statement = p.statement.slice(0, 80);
          if (trigram.includes(p)) {
            // Every match through the trigram index, then one sort of their ids: no scan of the workspace.
            expect({ statement, trigram: p.nodes.includes("Bitmap Index Scan on packages_title_trgm_idx") }).toEqual({ statement, trigram: true });
            expect({ statement, nodes: p.nodes.filter((n) => bad.test(n) && n !== "Sort") }).toEqual({ statement, nodes: [] });
            expect({ statement, sorts: p.nodes.filter((n) => n === "Sort").length }).toEqual({ statement, sorts: 1 });
          } else {
            expect({ statement, nodes: p.nodes.filter((n) => bad.test(n)) }).toEqual({ statement, nodes: [] });
            if (searches.includes(p)) expect({ statement, walk: p.nodes.includes("Index Scan on packages_ws_updated_idx") }).toEqual({ statement, walk: true });
          }
        }
      } finally {
        await Promise.all([main.end(), generic.end()]);
      }
    },
  );
});
