/**
 * Protects the app's edit lock on templates: a member takes a 2-minute lease (renewable); while it is live,
 * another member's lock attempt and every API change of the template, its roles and fields answer 409 naming
 * the holder, while the holder's own changes pass; an expired lock is taken over; releasing is for the
 * holder, breaking another's is for the owner only (403 otherwise) and is audited; two members acquiring at
 * once end with exactly one holder.
 */
import { and, eq } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import * as appLock from "@/app/api/app/templates/[templateId]/lock/route";
import * as appOne from "@/app/api/app/templates/[templateId]/route";
import * as appRoles from "@/app/api/app/templates/[templateId]/roles/route";
import * as fieldsRoute from "@/app/api/v1/templates/[templateId]/fields/route";
import * as rolesOne from "@/app/api/v1/templates/[templateId]/roles/[roleIndex]/route";
import * as rolesRoute from "@/app/api/v1/templates/[templateId]/roles/route";
import * as one from "@/app/api/v1/templates/[templateId]/route";
import * as list from "@/app/api/v1/templates/route";
import { setSessionLookup } from "@/server/auth/app-route";
import { auditEvents, editLocks } from "@/server/db/schema";
import type { TActor } from "@/server/domain/access/actor";
import { acquireLock } from "@/server/domain/locks/acquire-lock";
import { AppError } from "@/server/lib/errors";
import { setClock } from "@/server/lib/clock";
import { createTestMember, ownerActor } from "@/server/test/actors";
import { useTestDb } from "@/server/test/db";
import { callJson } from "@/server/test/http";
import { insertDocument, templatesOrg } from "./test-support/fixtures";

const t = useTestDb();
afterEach(() => setSessionLookup(undefined));

type TBody<T = Record<string, unknown>> = { data: T; error?: string };
type TLock = { user: { id: string; email: string }; expiresAt: string; mine: boolean };

let clock = Date.parse("2030-01-01T09:00:00Z");
const advance = (ms: number) => (clock += ms);

function as(actor: TActor) {
  setSessionLookup(async () => ({ userId: actor.user.id, organisationId: actor.organisation.id }));
}

async function setup() {
  setClock(() => new Date(clock));
  const ctx = await templatesOrg(t.db);
  const tpl = (await callJson<TBody<{ id: string }>>(list.POST, { key: ctx.key, body: { name: "Lease" } })).body.data;
  const p = { templateId: tpl.id };
  await callJson(rolesRoute.POST, { key: ctx.key, params: p, body: { name: "Tenant" } });
  const alice = await createTestMember(t.db, ctx.org);
  const bob = await createTestMember(t.db, ctx.org);
  const owner = ownerActor(ctx.org);
  return { ...ctx, p, alice, bob, owner };
}

describe("template edit lock", () => {
  it("blocks other members and API keys with 409 naming the holder, lets the holder edit, and lapses after 2 minutes", async () => {
    const { org, key, p, alice, bob } = await setup();
    as(alice);
    const taken = await callJson<TBody<TLock>>(appLock.POST, { params: p });
    expect(taken.status).toBe(200);
    expect(taken.body.data).toMatchObject({
      user: { id: alice.user.id, email: alice.user.email },
      mine: true,
      expiresAt: new Date(clock + 120_000).toISOString(),
    });

    // The API (a key issued by the owner) is refused on every kind of change, and reads still work.
    const documentId = await insertDocument(t.db, org, p.templateId);
    const refused = [
      await callJson<TBody>(one.PATCH, { key, params: p, body: { name: "X" } }),
      await callJson<TBody>(one.DELETE, { key, params: p }),
      await callJson<TBody>(rolesRoute.POST, { key, params: p, body: { name: "Y" } }),
      await callJson<TBody>(rolesOne.PATCH, { key, params: { ...p, roleIndex: "0" }, body: { name: "Y" } }),
      await callJson<TBody>(rolesOne.DELETE, { key, params: { ...p, roleIndex: "0" } }),
      await callJson<TBody>(fieldsRoute.POST, { key, params: p, body: { documentId, roleIndex: 0, type: "date", page: 1, x: 1, y: 1, width: 10, height: 10 } }),
    ];
    for (const res of refused) {
      expect(res.status).toBe(409);
      expect(res.body.error).toContain(alice.user.email);
    }
    const read = await callJson<TBody<{ lock: TLock }>>(one.GET, { key, params: p });
    expect(read.body.data.lock).toMatchObject({ user: { id: alice.user.id }, mine: false });

    // Another member: 409 for the lock and for changes; the holder: no 409.
    as(bob);
    const bobLock = await callJson<TBody>(appLock.POST, { params: p });
    expect(bobLock.status).toBe(409);
    expect(bobLock.body.error).toContain(alice.user.email);
    expect((await callJson(appRoles.POST, { params: p, body: { name: "Z" } })).status).toBe(409);
    as(alice);
    expect((await callJson(appOne.PATCH, { params: p, body: { name: "Alice's lease" } })).status).toBe(200);
    expect((await callJson(appRoles.POST, { params: p, body: { name: "Witness" } })).status).toBe(201);

    // Renewing moves the lease; once it lapses, Bob takes it over and Alice is the one refused.
    advance(90_000);
    const renewed = await callJson<TBody<TLock>>(appLock.POST, { params: p });
    expect(renewed.body.data.expiresAt).toBe(new Date(clock + 120_000).toISOString());
    advance(119_000);
    as(bob);
    expect((await callJson(appLock.POST, { params: p })).status).toBe(409);
    advance(1_000);
    expect((await callJson(one.PATCH, { key, params: p, body: { name: "Free" } })).status).toBe(200);
    const bobs = await callJson<TBody<TLock>>(appLock.POST, { params: p });
    expect(bobs.body.data).toMatchObject({ user: { id: bob.user.id }, mine: true });
    as(alice);
    expect((await callJson(appOne.PATCH, { params: p, body: { name: "Mine" } })).status).toBe(409);
    const rows = await t.db.select().from(editLocks).where(eq(editLocks.resourceId, p.templateId));
    expect(rows.map((r) => r.userId)).toEqual([bob.user.id]);
  });

  it("releases the holder's own lock; another's needs force, which only the owner has (audited)", async () => {
    const { p, alice, bob, owner } = await setup();
    as(alice);
    await callJson(appLock.POST, { params: p });
    as(bob);
    const notHis = await callJson<TBody>(appLock.DELETE, { params: p });
    expect(notHis.status).toBe(409);
    expect(notHis.body.error).toContain(alice.user.email);
    const notOwner = await callJson<TBody>(appLock.DELETE, { params: p, query: { force: "true" } });
    expect(notOwner.status).toBe(403);
    as(owner);
    const broken = await callJson<TBody<{ released: boolean }>>(appLock.DELETE, { params: p, query: { force: "true" } });
    expect(broken.body.data).toEqual({ released: true });
    const [audit] = await t.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.subjectId, p.templateId), eq(auditEvents.action, "template.lock_broken")));
    expect(audit).toMatchObject({ actorUserId: owner.user.id, data: { holder: { id: alice.user.id, email: alice.user.email } } });
    expect((await callJson<TBody<{ released: boolean }>>(appLock.DELETE, { params: p })).body.data).toEqual({ released: false });

    as(bob);
    await callJson(appLock.POST, { params: p });
    expect((await callJson<TBody<{ released: boolean }>>(appLock.DELETE, { params: p })).body.data).toEqual({ released: true });
    expect(await t.db.select().from(editLocks).where(eq(editLocks.resourceId, p.templateId))).toEqual([]);
  });

  it("lets exactly one of two members acquiring at once hold the lock; a key cannot hold one", async () => {
    const { p, alice, bob } = await setup();
    const resource = { type: "template" as const, id: p.templateId };
    const outcomes = await Promise.allSettled([acquireLock(t.db, alice, resource), acquireLock(t.db, bob, resource)]);
    const won = outcomes.filter((o) => o.status === "fulfilled");
    const lost = outcomes.filter((o): o is PromiseRejectedResult => o.status === "rejected");
    expect(won).toHaveLength(1);
    expect(lost).toHaveLength(1);
    expect((lost[0]!.reason as AppError).status).toBe(409);
    const rows = await t.db.select().from(editLocks).where(eq(editLocks.resourceId, p.templateId));
    expect(rows).toHaveLength(1);
    const winner = (won[0] as PromiseFulfilledResult<{ userId: string }>).value.userId;
    expect(rows[0]!.userId).toBe(winner);

    const keyed = { ...alice, apiKey: { id: "key_x", name: "k", prefix: "fsk_x" } };
    await expect(acquireLock(t.db, keyed, resource)).rejects.toMatchObject({ status: 403 });
  });

  it("answers 404 for another workspace's template and 403 for a member whose role only USEs templates", async () => {
    const { org, p, alice } = await setup();
    const other = await templatesOrg(t.db);
    const otherTpl = (await callJson<TBody<{ id: string }>>(list.POST, { key: other.key, body: { name: "Theirs" } })).body.data;
    as(alice);
    expect((await callJson(appLock.POST, { params: { templateId: otherTpl.id } })).status).toBe(404);
    const viewer = await createTestMember(t.db, org, org.roleIds.viewer);
    expect(viewer.role.templateAccess).toBe("USE");
    as(viewer);
    expect((await callJson(appLock.POST, { params: p })).status).toBe(403);
  });
});
