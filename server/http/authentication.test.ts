/**
 * Every 401 cause of the spec's authentication table, through a real route handler and database, each
 * answering exactly `{ "error": "Unauthorized" }` with `WWW-Authenticate: Bearer`; plus the promises around a key's life: revocation is
 * effective on the very next request, expiry ends the key at its instant, and the last-used time is written
 * at most once a minute (no write per request).
 */
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { GET as getAccount } from "@/app/api/v1/account/route";
import { GET as listWebhooks } from "@/app/api/v1/webhooks/route";
import { apiKeys, memberships, organisations, roles, users } from "@/server/db/schema";
import { setClock } from "@/server/lib/clock";
import { useTestDb } from "@/server/test/db";
import { createTestKey, createTestOrg, createTestRole, createTestWorkspace, getKey } from "@/server/test/factories";
import { callRoute, type TCallOptions } from "@/server/test/http";

const t = useTestDb();

async function expectUnauthorized(opts: TCallOptions): Promise<void> {
  const res = await callRoute(getAccount, opts);
  expect(res.status).toBe(401);
  expect(await res.json()).toEqual({ error: "Unauthorized" });
  // Regression (integrator audit): a 401 must say which scheme to authenticate with (RFC 9110 §11.6.1).
  expect(res.headers.get("www-authenticate")).toBe("Bearer");
}

async function setup() {
  const org = await createTestOrg(t.db);
  const key = await createTestKey(t.db, org);
  // Control: the same key works before the cause is introduced, so each 401 below is due to that cause.
  expect((await callRoute(getAccount, { key: key.value })).status).toBe(200);
  return { org, key };
}

describe("401 Unauthorized, one case per cause of the spec", () => {
  it("no Authorization header", async () => {
    await setup();
    await expectUnauthorized({});
  });

  it("not a Bearer token", async () => {
    const { key } = await setup();
    await expectUnauthorized({ headers: { authorization: `Basic ${key.value}` } });
    await expectUnauthorized({ headers: { authorization: key.value } });
  });

  it("a token not starting with fsk_", async () => {
    const { key } = await setup();
    await expectUnauthorized({ headers: { authorization: `Bearer ${key.value.replace(/^fsk_/, "sk_")}` } });
  });

  it("an unknown key", async () => {
    const { key } = await setup();
    await expectUnauthorized({ key: `${key.value.slice(0, -2)}zz` });
  });

  it("a revoked key", async () => {
    const { org, key } = await setup();
    await t.db.update(apiKeys).set({ revokedAt: new Date() }).where(eq(apiKeys.id, key.id));
    await expectUnauthorized({ key: key.value });
    const other = await createTestKey(t.db, org, { revokedAt: new Date("2020-01-01T00:00:00Z") });
    await expectUnauthorized({ key: other.value });
  });

  it("an expired key: works until its instant, refused from it on", async () => {
    const { org } = await setup();
    const expiresAt = new Date("2030-06-01T04:00:00.000Z");
    const key = await createTestKey(t.db, org, { expiresAt });
    setClock(() => new Date(expiresAt.getTime() - 1));
    expect((await callRoute(getAccount, { key: key.value })).status).toBe(200);
    setClock(() => expiresAt);
    await expectUnauthorized({ key: key.value });
  });

  it("the key's role has no API access (built-in Sender, and a custom role that lost it)", async () => {
    const { org } = await setup();
    const senderKey = await createTestKey(t.db, org, { roleId: org.roleIds.sender });
    await expectUnauthorized({ key: senderKey.value });

    const roleId = await createTestRole(t.db, org.organisationId, { apiAccess: true });
    const key = await createTestKey(t.db, org, { roleId });
    expect((await callRoute(getAccount, { key: key.value })).status).toBe(200);
    await t.db.update(roles).set({ apiAccess: false }).where(eq(roles.id, roleId));
    await expectUnauthorized({ key: key.value });
  });

  it("the issuing user's account was deleted", async () => {
    const { org, key } = await setup();
    await t.db.update(users).set({ deletedAt: new Date() }).where(eq(users.id, org.userId));
    await expectUnauthorized({ key: key.value });
  });

  it("the issuing user is no longer a member of the organisation", async () => {
    const { org, key } = await setup();
    await t.db.delete(memberships).where(eq(memberships.userId, org.userId));
    await expectUnauthorized({ key: key.value });
  });

  it("X-Workspace-Id of a sibling workspace of the same organisation (never widened)", async () => {
    const { org, key } = await setup();
    const sibling = await createTestWorkspace(t.db, org.organisationId, "sibling");
    await expectUnauthorized({ key: key.value, headers: { "x-workspace-id": sibling } });
  });

  it("X-Workspace-Id with an unknown or empty value", async () => {
    const { key } = await setup();
    await expectUnauthorized({ key: key.value, headers: { "x-workspace-id": "ws_does_not_exist" } });
    await expectUnauthorized({ key: key.value, headers: { "x-workspace-id": "" } });
  });

  it("only a 401 carries the challenge: not a 200, a 402 or a 403", async () => {
    const { org, key } = await setup();
    expect((await callRoute(getAccount, { key: key.value })).headers.get("www-authenticate")).toBeNull();
    await t.db.update(organisations).set({ featurePublicApi: false }).where(eq(organisations.id, org.organisationId));
    const plan = await callRoute(getAccount, { key: key.value });
    expect([plan.status, plan.headers.get("www-authenticate")]).toEqual([402, null]);
    await t.db
      .update(organisations)
      .set({ featurePublicApi: true, ipAllowlist: ["203.0.113.0/24"] })
      .where(eq(organisations.id, org.organisationId));
    const ip = await callRoute(getAccount, { key: key.value, address: "198.51.100.7" });
    expect([ip.status, ip.headers.get("www-authenticate")]).toEqual([403, null]);
  });

  it("X-Workspace-Id repeating the key's own workspace is accepted", async () => {
    const { org, key } = await setup();
    const res = await callRoute(getAccount, { key: key.value, headers: { "x-workspace-id": org.workspaceId } });
    expect(res.status).toBe(200);
  });

  it("a key of another organisation's workspace cannot name this organisation's workspace", async () => {
    const { org } = await setup();
    const other = await createTestOrg(t.db, "Other");
    const otherKey = await createTestKey(t.db, other);
    await expectUnauthorized({ key: otherKey.value, headers: { "x-workspace-id": org.workspaceId } });
  });
});

describe("a key's life", () => {
  it("revocation is effective on the very next request", async () => {
    const { org, key } = await setup();
    expect((await callRoute(getAccount, { key: key.value })).status).toBe(200);
    await t.db.update(apiKeys).set({ revokedAt: new Date() }).where(eq(apiKeys.id, key.id));
    await expectUnauthorized({ key: key.value });
    expect((await getKey(t.db, org.organisationId, key.id))?.revokedAt).not.toBeNull();
  });

  it("writes the last-used time at most once a minute", async () => {
    const org = await createTestOrg(t.db);
    const key = await createTestKey(t.db, org);
    const t0 = new Date("2030-01-01T10:00:00.000Z");
    const lastUsed = async () => (await getKey(t.db, org.organisationId, key.id))?.lastUsedAt?.toISOString();

    setClock(() => t0);
    await callRoute(getAccount, { key: key.value });
    expect(await lastUsed()).toBe(t0.toISOString());

    setClock(() => new Date(t0.getTime() + 59_999));
    await callRoute(getAccount, { key: key.value });
    expect(await lastUsed()).toBe(t0.toISOString());

    const t1 = new Date(t0.getTime() + 60_000);
    setClock(() => t1);
    await callRoute(getAccount, { key: key.value });
    expect(await lastUsed()).toBe(t1.toISOString());
  });

  /*
   * Regression: the last-used time was written as soon as the key was found, before the workspace-header,
   * plan, IP and permission checks, so a refused request (401 for a sibling X-Workspace-Id, 403 from outside
   * the allowlist…) showed the key as used on the owner's list. Only an admitted request is a use.
   */
  it("a refused request does not mark the key as used: 401 workspace header, 402 plan, 403 IP, 403 permission", async () => {
    const org = await createTestOrg(t.db);
    const sibling = await createTestWorkspace(t.db, org.organisationId, "sibling");
    const roleId = await createTestRole(t.db, org.organisationId, { canManageWebhooks: false });
    const key = await createTestKey(t.db, org, { roleId });
    const lastUsed = async () => (await getKey(t.db, org.organisationId, key.id))?.lastUsedAt ?? null;
    const setOrg = (values: Partial<typeof organisations.$inferInsert>) =>
      t.db.update(organisations).set(values).where(eq(organisations.id, org.organisationId));
    const t0 = new Date("2030-01-01T10:00:00.000Z");
    setClock(() => t0);

    expect((await callRoute(getAccount, { key: key.value, headers: { "x-workspace-id": sibling } })).status).toBe(401);
    await setOrg({ featurePublicApi: false });
    expect((await callRoute(getAccount, { key: key.value })).status).toBe(402);
    await setOrg({ featurePublicApi: true, ipAllowlist: ["203.0.113.0/24"] });
    expect((await callRoute(getAccount, { key: key.value, address: "198.51.100.7" })).status).toBe(403);
    await setOrg({ ipAllowlist: [] });
    expect((await callRoute(listWebhooks, { key: key.value })).status).toBe(403);
    expect(await lastUsed()).toBeNull();

    expect((await callRoute(getAccount, { key: key.value })).status).toBe(200);
    expect((await lastUsed())?.toISOString()).toBe(t0.toISOString());
  });
});
