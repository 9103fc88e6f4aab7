/**
 * Package shares (the app's /api/app/packages/{packageId}/shares), through the real routes, session door and
 * gates on a real database. Protects the spec's visibility rule end to end: a member without
 * canViewAllPackages does not see a package until it is shared with them, then sees it in the list, the
 * detail and through an API key they issued; taking the share back hides it again. And the rules of sharing:
 * only the owner or a holder of canViewAllPackages may share (403; 404 for who cannot even see it), the target
 * must be a current member of the organisation (422 on `userId`) other than the owner (400), sharing twice is
 * idempotent (one row, one audit event), ended packages can be shared, another workspace gets 404, removing a
 * member drops their shares, and every change is audited on the package's trail.
 */
import { and, eq } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { GET as appListRoute } from "@/app/api/app/packages/route";
import { GET as appGetRoute } from "@/app/api/app/packages/[packageId]/route";
import { GET as appAuditRoute } from "@/app/api/app/packages/[packageId]/audit-events/route";
import { GET as listSharesRoute, POST as shareRoute } from "@/app/api/app/packages/[packageId]/shares/route";
import { DELETE as unshareRoute } from "@/app/api/app/packages/[packageId]/shares/[userId]/route";
import { DELETE as removeMemberRoute } from "@/app/api/app/members/[userId]/route";
import { GET as v1ListRoute } from "@/app/api/v1/packages/route";
import { GET as v1GetRoute } from "@/app/api/v1/packages/[packageId]/route";
import { POST as v1VoidRoute } from "@/app/api/v1/packages/[packageId]/void/route";
import { auditEvents, packageShares } from "@/server/db/schema";
import type { TActor } from "@/server/domain/access/actor";
import { loadSessionActor } from "@/server/domain/access/load-session-actor";
import { setClock } from "@/server/lib/clock";
import { createTestMember } from "@/server/test/actors";
import { callApp } from "@/server/test/app-http";
import { useTestDb } from "@/server/test/db";
import { createTestKey, createTestOrg, createTestRole, createTestWorkspace, type TTestOrg } from "@/server/test/factories";
import { callJson } from "@/server/test/http";
import { sharePackage } from "./share-package";
import type { TPackageShare, TPackageShareList } from "./schemas";
import { createActiveTemplate } from "./test-support/fixtures";
import { packageFromTemplate } from "@/server/test/package-from-template";

const t = useTestDb();
afterEach(() => setClock(undefined));
const onPostgres = Boolean(process.env.DATABASE_URL);

type TBody<T> = { data: T; error?: string; details?: Record<string, string[]> };

async function setup() {
  const org = await createTestOrg(t.db);
  const ownerKey = (await createTestKey(t.db, org)).value;
  const tpl = await createActiveTemplate(t.db, org);
  const created = await packageFromTemplate(ownerKey, {
    templateId: tpl.templateId,
    title: "Lease",
    recipients: [
      { email: "tenant@example.com", roleIndex: 0 },
      { email: "landlord@example.com", roleIndex: 1 },
    ],
  });
  // A member who may send and use the API but not see every package, with a key of their own.
  const narrowRole = await createTestRole(t.db, org.organisationId, { canSendPackages: true, apiAccess: true });
  const narrow = await createTestMember(t.db, org, narrowRole);
  const narrowKey = (await createTestKey(t.db, { ...org, userId: narrow.user.id }, { roleId: narrowRole })).value;
  return { org, ownerKey, packageId: created.id, narrowRole, narrow, narrowKey };
}

const as = (who: TTestOrg | TActor) =>
  "user" in who ? { userId: who.user.id, organisationId: who.organisation.id } : { userId: who.userId, organisationId: who.organisationId };

async function share(who: TTestOrg | TActor, packageId: string, body: unknown) {
  return callApp<TBody<TPackageShare>>(shareRoute, { as: as(who), params: { packageId }, body });
}

async function auditActions(packageId: string) {
  const rows = await t.db
    .select({ action: auditEvents.action, data: auditEvents.data })
    .from(auditEvents)
    .where(and(eq(auditEvents.subjectType, "package"), eq(auditEvents.subjectId, packageId)));
  return rows.filter((r) => r.action === "package.shared" || r.action === "package.unshared");
}

/** What the member sees of the package: app detail, app list, and the API through their own key. */
async function sees(s: Awaited<ReturnType<typeof setup>>) {
  const detail = await callApp(appGetRoute, { as: as(s.narrow), params: { packageId: s.packageId } });
  const list = await callApp<TBody<{ packages: { id: string }[] }>>(appListRoute, { as: as(s.narrow) });
  const apiDetail = await callJson(v1GetRoute, { key: s.narrowKey, params: { packageId: s.packageId } });
  const apiList = await callJson<TBody<{ packages: { id: string }[] }>>(v1ListRoute, { key: s.narrowKey });
  return {
    detail: detail.status,
    inList: list.body.data.packages.some((p) => p.id === s.packageId),
    apiDetail: apiDetail.status,
    inApiList: apiList.body.data.packages.some((p) => p.id === s.packageId),
  };
}

describe("sharing a package with a member", () => {
  it("makes it visible (list, detail, the member's API key); taking it back hides it again", async () => {
    setClock(() => new Date("2030-05-01T10:00:00.000Z"));
    const s = await setup();
    expect(await sees(s)).toEqual({ detail: 404, inList: false, apiDetail: 404, inApiList: false });

    const created = await share(s.org, s.packageId, { userId: s.narrow.user.id });
    expect(created.status).toBe(201);
    expect(created.body.data).toEqual({
      userId: s.narrow.user.id,
      name: "Member",
      email: s.narrow.user.email,
      sharedAt: "2030-05-01T10:00:00.000Z",
      sharedBy: { userId: s.org.userId, name: expect.any(String), email: expect.any(String) },
    });
    expect(await sees(s)).toEqual({ detail: 200, inList: true, apiDetail: 200, inApiList: true });

    // The shared member may read the list of shares but not change it.
    const listed = await callApp<TBody<TPackageShareList>>(listSharesRoute, { as: as(s.narrow), params: { packageId: s.packageId } });
    expect(listed.status).toBe(200);
    expect(listed.body.data.canManage).toBe(false);
    expect(listed.body.data.shares.map((x) => x.userId)).toEqual([s.narrow.user.id]);
    const ownerList = await callApp<TBody<TPackageShareList>>(listSharesRoute, { as: as(s.org), params: { packageId: s.packageId } });
    expect(ownerList.body.data.canManage).toBe(true);

    const removed = await callApp<TBody<{ userId: string; removed: boolean }>>(unshareRoute, {
      as: as(s.org),
      params: { packageId: s.packageId, userId: s.narrow.user.id },
    });
    expect(removed.status).toBe(200);
    expect(removed.body.data).toEqual({ userId: s.narrow.user.id, removed: true });
    expect(await sees(s)).toEqual({ detail: 404, inList: false, apiDetail: 404, inApiList: false });
    const again = await callApp<TBody<unknown>>(unshareRoute, { as: as(s.org), params: { packageId: s.packageId, userId: s.narrow.user.id } });
    expect(again.status).toBe(404);
    expect(again.body.error).toBe("Share not found");

    expect((await auditActions(s.packageId)).map((a) => [a.action, a.data])).toEqual([
      ["package.shared", { userId: s.narrow.user.id, email: s.narrow.user.email }],
      ["package.unshared", { userId: s.narrow.user.id, email: s.narrow.user.email }],
    ]);
    // The package page's timeline reads them from the package's trail, attributed to the owner.
    const trail = await callApp<TBody<{ auditEvents: { action: string; actorUserId: string | null }[] }>>(appAuditRoute, {
      as: as(s.org),
      params: { packageId: s.packageId },
    });
    expect(trail.body.data.auditEvents.slice(0, 2).map((e) => [e.action, e.actorUserId])).toEqual([
      ["package.unshared", s.org.userId],
      ["package.shared", s.org.userId],
    ]);
  });

  it("sharing twice is idempotent: 200 with the same share, one row, one audit event", async () => {
    const s = await setup();
    const first = await share(s.org, s.packageId, { userId: s.narrow.user.id });
    const second = await share(s.org, s.packageId, { userId: s.narrow.user.id });
    expect([first.status, second.status]).toEqual([201, 200]);
    expect(second.body.data).toEqual(first.body.data);
    expect(await t.db.select().from(packageShares).where(eq(packageShares.packageId, s.packageId))).toHaveLength(1);
    expect(await auditActions(s.packageId)).toHaveLength(1);
  });

  it("an ended (voided) package can still be shared", async () => {
    const s = await setup();
    const sent = await packageFromTemplate(s.ownerKey, {
      templateId: (await createActiveTemplate(t.db, s.org)).templateId,
      title: "Ended",
      status: "sent",
      recipients: [
        { email: "a@example.com", roleIndex: 0 },
        { email: "b@example.com", roleIndex: 1 },
      ],
    });
    expect((await callJson(v1VoidRoute, { key: s.ownerKey, params: { packageId: sent.id }, body: { reason: "Wrong" } })).status).toBe(200);
    expect((await share(s.org, sent.id, { userId: s.narrow.user.id })).status).toBe(201);
    const detail = await callJson<TBody<{ status: string }>>(v1GetRoute, { key: s.narrowKey, params: { packageId: sent.id } });
    expect(detail.body.data.status).toBe("VOID");
  });
});

describe("who may share", () => {
  it("a member who only sees it because it was shared cannot pass it on or take a share back (403)", async () => {
    const s = await setup();
    const other = await createTestMember(t.db, s.org, s.org.roleIds.viewer);
    await share(s.org, s.packageId, { userId: s.narrow.user.id });
    await share(s.org, s.packageId, { userId: other.user.id });
    const refused = await share(s.narrow, s.packageId, { userId: other.user.id });
    expect(refused.status).toBe(403);
    expect(refused.body.error).toBe("Only the package's owner or a member who can view all packages can share it");
    const unshare = await callApp<TBody<unknown>>(unshareRoute, { as: as(s.narrow), params: { packageId: s.packageId, userId: other.user.id } });
    expect(unshare.status).toBe(403);
    expect(await auditActions(s.packageId)).toHaveLength(2);
  });

  it("a member who cannot see the package gets 404 on every shares route, not 403", async () => {
    const s = await setup();
    const other = await createTestMember(t.db, s.org, s.org.roleIds.sender);
    const p = { packageId: s.packageId };
    expect((await callApp(listSharesRoute, { as: as(other), params: p })).status).toBe(404);
    expect((await share(other, s.packageId, { userId: s.narrow.user.id })).status).toBe(404);
    expect((await callApp(unshareRoute, { as: as(other), params: { ...p, userId: s.narrow.user.id } })).status).toBe(404);
  });

  it("the package's owner without canViewAllPackages may share their own package; a holder of canViewAllPackages may share any", async () => {
    const s = await setup();
    // The narrow member creates a package with their key: they own it.
    const tpl = await createActiveTemplate(t.db, s.org);
    const mine = await packageFromTemplate(s.narrowKey, {
      templateId: tpl.templateId,
      title: "Mine",
      recipients: [
        { email: "a@example.com", roleIndex: 0 },
        { email: "b@example.com", roleIndex: 1 },
      ],
    });
    const colleague = await createTestMember(t.db, s.org, s.narrowRole);
    expect((await share(s.narrow, mine.id, { userId: colleague.user.id })).status).toBe(201);
    const admin = await createTestMember(t.db, s.org, s.org.roleIds.admin);
    expect((await share(admin, s.packageId, { userId: colleague.user.id })).status).toBe(201);
    const shared = await share(admin, s.packageId, { userId: colleague.user.id });
    expect(shared.body.data.sharedBy?.userId).toBe(admin.user.id);
  });
});

describe("whom it may be shared with", () => {
  it("422 on userId for an unknown user, a member of another organisation, a removed member, or no userId; 400 for the owner", async () => {
    const s = await setup();
    const otherOrg = await createTestOrg(t.db, "Other");
    const foreigner = await createTestMember(t.db, otherOrg, otherOrg.roleIds.admin);
    const leaving = await createTestMember(t.db, s.org, s.org.roleIds.viewer);
    expect((await callApp(removeMemberRoute, { as: as(s.org), params: { userId: leaving.user.id } })).status).toBe(200);
    for (const userId of ["usr_unknown", foreigner.user.id, otherOrg.userId, leaving.user.id]) {
      const res = await share(s.org, s.packageId, { userId });
      expect(res.status, userId).toBe(422);
      expect(res.body.details).toEqual({ userId: ["Not a member of this organisation"] });
    }
    for (const body of [{}, { userId: "" }, { userId: 7 }]) {
      const res = await share(s.org, s.packageId, body);
      expect(res.status).toBe(422);
      expect(Object.keys(res.body.details ?? {})).toEqual(["userId"]);
    }
    const bad = await callApp<TBody<unknown>>(shareRoute, {
      as: as(s.org),
      params: { packageId: s.packageId },
      rawBody: "{not json",
      headers: { "content-type": "application/json" },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe("Invalid JSON body");
    const owner = await share(s.org, s.packageId, { userId: s.org.userId });
    expect(owner.status).toBe(400);
    expect(owner.body.error).toBe("The package's owner already sees it; choose another member");
    expect(await t.db.select().from(packageShares)).toHaveLength(0);
    expect(await auditActions(s.packageId)).toHaveLength(0);
  });

  it("removing a member drops their shares, with an audit event on each package", async () => {
    const s = await setup();
    await share(s.org, s.packageId, { userId: s.narrow.user.id });
    expect((await callApp(removeMemberRoute, { as: as(s.org), params: { userId: s.narrow.user.id } })).status).toBe(200);
    expect(await t.db.select().from(packageShares)).toHaveLength(0);
    expect((await auditActions(s.packageId)).map((a) => [a.action, a.data])).toEqual([
      ["package.shared", { userId: s.narrow.user.id, email: s.narrow.user.email }],
      ["package.unshared", { userId: s.narrow.user.id, email: s.narrow.user.email, memberRemoved: true }],
    ]);
  });
});

describe("tenancy", () => {
  it("404 from another workspace of the organisation and from another organisation, on every shares route", async () => {
    const s = await setup();
    await share(s.org, s.packageId, { userId: s.narrow.user.id });
    const sibling = await createTestWorkspace(t.db, s.org.organisationId, "sibling");
    const p = { packageId: s.packageId };
    const inSibling = { as: as(s.org), workspaceId: sibling };
    expect((await callApp(listSharesRoute, { ...inSibling, params: p })).status).toBe(404);
    expect((await callApp(shareRoute, { ...inSibling, params: p, body: { userId: s.narrow.user.id } })).status).toBe(404);
    expect((await callApp(unshareRoute, { ...inSibling, params: { ...p, userId: s.narrow.user.id } })).status).toBe(404);
    const otherOrg = await createTestOrg(t.db, "Other");
    expect((await callApp(listSharesRoute, { as: as(otherOrg), params: p })).status).toBe(404);
    expect((await callApp(shareRoute, { as: as(otherOrg), params: p, body: { userId: s.narrow.user.id } })).status).toBe(404);
    expect((await callApp(unshareRoute, { as: as(otherOrg), params: { ...p, userId: s.narrow.user.id } })).status).toBe(404);
    // Nothing changed: still shared, one audit event.
    expect(await t.db.select().from(packageShares)).toHaveLength(1);
    expect(await auditActions(s.packageId)).toHaveLength(1);
  });

  it("an API key is refused by the shares routes (the app's own door)", async () => {
    const s = await setup();
    const res = await callJson<TBody<unknown>>(shareRoute, { key: s.ownerKey, params: { packageId: s.packageId }, body: { userId: s.narrow.user.id } });
    expect(res.status).toBe(403);
  });
});

describe.runIf(onPostgres)("concurrency on PostgreSQL", () => {
  it("two shares of one package with one member at once: one row, one audit event, one created", async () => {
    const s = await setup();
    const actor = (await loadSessionActor(t.db, { userId: s.org.userId, organisationId: s.org.organisationId }))!;
    const results = await Promise.all([0, 1, 2].map(() => sharePackage(t.db, actor, { packageId: s.packageId, userId: s.narrow.user.id })));
    expect(results.filter((r) => r.created)).toHaveLength(1);
    expect(await t.db.select().from(packageShares)).toHaveLength(1);
    expect(await auditActions(s.packageId)).toHaveLength(1);
  });
});
