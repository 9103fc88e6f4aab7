/**
 * The owner's API keys, end to end with the /api/v1 pipeline: a created key is `fsk_` + 32 random bytes,
 * shown once (only its hash and prefix are stored) and works at once; it works until the end of its expiry
 * day in the creator's zone (including a DST day) and stops at that instant; only roles with API access and
 * the organisation's own workspaces are accepted; the 51st unrevoked key is 409 (expired keys count);
 * revocation is immediate; the list shows the spec's attributes and statuses; only the owner may do any of it.
 */
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { GET as getAccount } from "@/app/api/v1/account/route";
import { apiKeys, auditEvents, memberships, users } from "@/server/db/schema";
import { assertGates } from "@/server/domain/access/gates";
import { AppError } from "@/server/lib/errors";
import { setClock } from "@/server/lib/clock";
import { sha256Hex } from "@/server/lib/crypto";
import { createTestMember, ownerActor } from "@/server/test/actors";
import { useTestDb } from "@/server/test/db";
import { createTestKey, createTestOrg, createTestRole, createTestWorkspace, getKey } from "@/server/test/factories";
import { callRoute } from "@/server/test/http";
import { removeMember } from "@/server/domain/organisation/remove-member";
import { ZUpdateRole } from "@/server/domain/organisation/schemas";
import { updateRole as updateParsedRole } from "@/server/domain/organisation/update-role";
import { viaBoundary } from "@/server/test/boundary";
import { createApiKey as createParsedApiKey, MAX_UNREVOKED_KEYS } from "./create-api-key";
import { ZCreateApiKey } from "./schemas";
import { listApiKeys } from "./list-api-keys";
import { appCreateApiKey, appListApiKeys, appRevokeApiKey } from "./operations";
import { revokeApiKey } from "./revoke-api-key";

const t = useTestDb();
// The routes parse before the domain runs; these calls go through the same boundary (server/test/boundary.ts).
const updateRole = viaBoundary(ZUpdateRole, updateParsedRole);
const createApiKey = viaBoundary(ZCreateApiKey, createParsedApiKey);

async function rejection(promise: Promise<unknown>): Promise<AppError> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(AppError);
  return err as AppError;
}

const status = async (key: string) => (await callRoute(getAccount, { key })).status;

describe("createApiKey", () => {
  it("returns the value once, stores only its hash and prefix, and the key works at once", async () => {
    const org = await createTestOrg(t.db);
    const created = await createApiKey(t.db, ownerActor(org), { name: "CRM", roleId: org.roleIds.admin, workspaceId: org.workspaceId });
    expect(created.value).toMatch(/^fsk_[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(created.value.slice(4), "base64url").length).toBeGreaterThanOrEqual(32);
    const row = await getKey(t.db, org.organisationId, created.id);
    expect(row?.hash).toBe(sha256Hex(created.value));
    expect(row?.prefix).toBe(created.prefix);
    expect(created.value.startsWith(created.prefix)).toBe(true);
    expect(JSON.stringify(row)).not.toContain(created.value);
    expect(row?.issuedByUserId).toBe(org.userId);
    expect(await status(created.value)).toBe(200);
    const [audit] = await t.db.select().from(auditEvents).where(eq(auditEvents.subjectId, created.id));
    expect(audit?.action).toBe("api_key.created");
    expect(JSON.stringify(audit?.data)).not.toContain(created.value);
  });

  it("expires at the end of the chosen day in the creator's zone: a London DST day and a New York day", async () => {
    const org = await createTestOrg(t.db);
    setClock(() => new Date("2026-03-01T12:00:00Z"));
    const london = await createApiKey(t.db, ownerActor(org), {
      name: "London",
      roleId: org.roleIds.admin,
      workspaceId: org.workspaceId,
      expiresOn: "2026-03-29",
      timeZone: "Europe/London",
    });
    const newYork = await createApiKey(t.db, ownerActor(org), {
      name: "New York",
      roleId: org.roleIds.admin,
      workspaceId: org.workspaceId,
      expiresOn: "2026-03-08",
      timeZone: "America/New_York",
    });
    // 2026-03-29 has 23 hours in London: it ends at 00:00 BST = 23:00Z, not at midnight UTC.
    expect(london.expiresAt?.toISOString()).toBe("2026-03-29T23:00:00.000Z");
    expect(newYork.expiresAt?.toISOString()).toBe("2026-03-09T04:00:00.000Z");
    for (const key of [london, newYork]) {
      setClock(() => new Date(key.expiresAt!.getTime() - 1));
      expect(await status(key.value)).toBe(200);
      setClock(() => key.expiresAt!);
      expect(await status(key.value)).toBe(401);
    }
  });

  it("refuses an expiry day already over, a date without a zone, and an unknown zone (422 by field)", async () => {
    const org = await createTestOrg(t.db);
    setClock(() => new Date("2026-03-10T12:00:00Z"));
    const base = { name: "k", roleId: org.roleIds.admin, workspaceId: org.workspaceId };
    const past = await rejection(createApiKey(t.db, ownerActor(org), { ...base, expiresOn: "2026-03-09", timeZone: "UTC" }));
    expect(past.status).toBe(422);
    expect(Object.keys(past.details ?? {})).toEqual(["expiresOn"]);
    const noZone = await rejection(createApiKey(t.db, ownerActor(org), { ...base, expiresOn: "2026-04-01" }));
    expect(Object.keys(noZone.details ?? {})).toEqual(["timeZone"]);
    const badZone = await rejection(createApiKey(t.db, ownerActor(org), { ...base, expiresOn: "2026-04-01", timeZone: "Nowhere/City" }));
    expect(Object.keys(badZone.details ?? {})).toEqual(["timeZone"]);
    const badDate = await rejection(createApiKey(t.db, ownerActor(org), { ...base, expiresOn: "2026-02-30", timeZone: "UTC" }));
    expect(Object.keys(badDate.details ?? {})).toEqual(["expiresOn"]);
    // Today is still allowed: the key works until tonight.
    const today = await createApiKey(t.db, ownerActor(org), { ...base, expiresOn: "2026-03-10", timeZone: "UTC" });
    expect(today.expiresAt?.toISOString()).toBe("2026-03-11T00:00:00.000Z");
  });

  /*
   * Regression: the time zone only places the expiry day, yet it was validated (and always sent by the
   * dialog) without one, so an owner whose browser reports a zone the server does not know could not create
   * a key that never expires (422 on a field they never filled). Without an expiry date it is ignored.
   */
  it("ignores the time zone without an expiry date, even an unknown one, and still checks it with one", async () => {
    const org = await createTestOrg(t.db);
    const base = { name: "k", roleId: org.roleIds.admin, workspaceId: org.workspaceId };
    const created = await createApiKey(t.db, ownerActor(org), { ...base, timeZone: "Nowhere/City" });
    expect(created.expiresAt).toBeNull();
    expect(await status(created.value)).toBe(200);
    const dated = await rejection(createApiKey(t.db, ownerActor(org), { ...base, expiresOn: "2099-01-01", timeZone: "Nowhere/City" }));
    expect(dated.details).toEqual({ timeZone: ["Unknown time zone"] });
  });

  it("accepts only a role with API access and a workspace of the owner's organisation", async () => {
    const org = await createTestOrg(t.db);
    const other = await createTestOrg(t.db, "Other");
    const owner = ownerActor(org);
    const noApi = await rejection(createApiKey(t.db, owner, { name: "k", roleId: org.roleIds.sender, workspaceId: org.workspaceId }));
    expect(noApi.status).toBe(422);
    expect(noApi.details).toEqual({ roleId: ["This role has no API access"] });
    const foreignRole = await rejection(createApiKey(t.db, owner, { name: "k", roleId: other.roleIds.admin, workspaceId: org.workspaceId }));
    expect(Object.keys(foreignRole.details ?? {})).toEqual(["roleId"]);
    const foreignWs = await rejection(createApiKey(t.db, owner, { name: "k", roleId: org.roleIds.admin, workspaceId: other.workspaceId }));
    expect(Object.keys(foreignWs.details ?? {})).toEqual(["workspaceId"]);
    const blank = await rejection(createApiKey(t.db, owner, { name: "  ", roleId: org.roleIds.admin, workspaceId: org.workspaceId }));
    expect(Object.keys(blank.details ?? {})).toEqual(["name"]);
    // A custom role with API access and a second workspace are fine; the key is bound to that workspace.
    const custom = await createTestRole(t.db, org.organisationId, { apiAccess: true });
    const ws = await createTestWorkspace(t.db, org.organisationId, "emea");
    const created = await createApiKey(t.db, owner, { name: "k", roleId: custom, workspaceId: ws });
    const account = await (await callRoute(getAccount, { key: created.value })).json();
    expect(account.data.workspace.id).toBe(ws);
    expect(account.data.role.id).toBe(custom);
  });

  it("refuses the 51st unrevoked key with 409; expired keys count, revoked ones do not", async () => {
    const org = await createTestOrg(t.db);
    const owner = ownerActor(org);
    for (let i = 0; i < MAX_UNREVOKED_KEYS - 2; i++) await createTestKey(t.db, org, { name: `k${i}` });
    await createTestKey(t.db, org, { name: "revoked", revokedAt: new Date("2025-01-01T00:00:00Z") });
    await createTestKey(t.db, org, { name: "expired", expiresAt: new Date("2025-01-01T00:00:00Z") });
    const fiftieth = await createApiKey(t.db, owner, { name: "50th", roleId: org.roleIds.admin, workspaceId: org.workspaceId });
    const refused = await rejection(createApiKey(t.db, owner, { name: "51st", roleId: org.roleIds.admin, workspaceId: org.workspaceId }));
    expect(refused.status).toBe(409);
    expect(refused.message).toMatch(/already has 50 API keys that are not revoked.*expired keys count/);
    // Another organisation is not affected by this one's keys.
    const other = await createTestOrg(t.db, "Other");
    await createApiKey(t.db, ownerActor(other), { name: "x", roleId: other.roleIds.admin, workspaceId: other.workspaceId });
    // Revoking one frees a place.
    await revokeApiKey(t.db, owner, { id: fiftieth.id });
    await createApiKey(t.db, owner, { name: "again", roleId: org.roleIds.admin, workspaceId: org.workspaceId });
  });

  // Audit item 2: two keys named "Production" could not be told apart in the one key list.
  it("refuses a name an ACTIVE key of the organisation has, in any case (409), and writes nothing; revoked and expired keys' names are free", async () => {
    const org = await createTestOrg(t.db);
    const owner = ownerActor(org);
    const base = { roleId: org.roleIds.admin, workspaceId: org.workspaceId };
    const production = await createApiKey(t.db, owner, { name: "Production", ...base });
    const keysBefore = await t.db.select().from(apiKeys).orderBy(apiKeys.id);
    const auditBefore = await t.db.select().from(auditEvents);
    const emea = await createTestWorkspace(t.db, org.organisationId, "emea");
    for (const [name, workspaceId] of [
      ["production", org.workspaceId],
      [" PRODUCTION ", emea],
    ] as const) {
      const refused = await rejection(createApiKey(t.db, owner, { ...base, name, workspaceId }));
      expect([refused.status, refused.message]).toEqual([
        409,
        `An active API key named "${name.trim()}" already exists (names are compared regardless of case): choose another name, or revoke that key first`,
      ]);
    }
    expect(await t.db.select().from(apiKeys).orderBy(apiKeys.id)).toEqual(keysBefore);
    expect(await t.db.select().from(auditEvents)).toHaveLength(auditBefore.length);

    // An expired key's name is free; so is a revoked one's; another organisation's keys do not count.
    await createTestKey(t.db, org, { name: "Nightly", expiresAt: new Date(Date.now() - 1000) });
    await createApiKey(t.db, owner, { name: "nightly", ...base });
    await revokeApiKey(t.db, owner, { id: production.id });
    await createApiKey(t.db, owner, { name: "PRODUCTION", ...base });
    const other = await createTestOrg(t.db, "Other");
    await createApiKey(t.db, ownerActor(other), { name: "production", roleId: other.roleIds.admin, workspaceId: other.workspaceId });
  });

  // The operations declare it; the route wrapper checks the declared gates before the domain function runs.
  it("is refused to members who are not the owner (403)", async () => {
    const org = await createTestOrg(t.db);
    const member = await createTestMember(t.db, org);
    for (const op of [appCreateApiKey, appListApiKeys, appRevokeApiKey]) {
      expect(() => assertGates(member, op)).toThrow("Only the organisation's owner can do this");
      expect(() => assertGates(ownerActor(org), op)).not.toThrow();
    }
  });
});

describe("revokeApiKey", () => {
  it("is effective on the very next request and permanent; a second revoke is a no-op", async () => {
    const org = await createTestOrg(t.db);
    const owner = ownerActor(org);
    const key = await createApiKey(t.db, owner, { name: "k", roleId: org.roleIds.admin, workspaceId: org.workspaceId });
    expect(await status(key.value)).toBe(200);
    setClock(() => new Date("2030-05-05T05:05:05Z"));
    const first = await revokeApiKey(t.db, owner, { id: key.id });
    expect(first).toEqual({ id: key.id, revokedAt: new Date("2030-05-05T05:05:05Z"), alreadyRevoked: false });
    expect(await status(key.value)).toBe(401);
    setClock(() => new Date("2030-06-06T00:00:00Z"));
    const again = await revokeApiKey(t.db, owner, { id: key.id });
    expect(again).toEqual({ id: key.id, revokedAt: first.revokedAt, alreadyRevoked: true });
    const events = await t.db.select().from(auditEvents).where(eq(auditEvents.subjectId, key.id));
    expect(events.map((e) => e.action).sort()).toEqual(["api_key.created", "api_key.revoked"]);
  });

  it("answers 404 for a key of another organisation and leaves it working", async () => {
    const org = await createTestOrg(t.db);
    const other = await createTestOrg(t.db, "Other");
    const foreign = await createTestKey(t.db, other);
    expect((await rejection(revokeApiKey(t.db, ownerActor(org), { id: foreign.id }))).status).toBe(404);
    expect(await status(foreign.value)).toBe(200);
  });
});

describe("listApiKeys", () => {
  it("lists name, last use, prefix, role (Can do), issuer (Issued by), workspace and status, for the org only", async () => {
    const org = await createTestOrg(t.db);
    const owner = ownerActor(org);
    const other = await createTestOrg(t.db, "Other");
    await createTestKey(t.db, other, { name: "foreign" });
    setClock(() => new Date("2026-01-01T00:00:00Z"));
    const active = await createApiKey(t.db, owner, { name: "active", roleId: org.roleIds.admin, workspaceId: org.workspaceId });
    setClock(() => new Date("2026-01-02T00:00:00Z"));
    await createApiKey(t.db, owner, {
      name: "expiring",
      roleId: org.roleIds.admin,
      workspaceId: org.workspaceId,
      expiresOn: "2026-01-05",
      timeZone: "UTC",
    });
    setClock(() => new Date("2026-01-03T00:00:00Z"));
    const revoked = await createApiKey(t.db, owner, { name: "revoked", roleId: org.roleIds.admin, workspaceId: org.workspaceId });
    await status(active.value);
    await revokeApiKey(t.db, owner, { id: revoked.id });

    setClock(() => new Date("2026-01-10T00:00:00Z"));
    const list = await listApiKeys(t.db, owner);
    expect(list.map((k) => k.name)).toEqual(["revoked", "expiring", "active"]);
    const [r, e, a] = list;
    expect(a).toMatchObject({
      id: active.id,
      prefix: active.prefix,
      lastUsedAt: new Date("2026-01-03T00:00:00Z"),
      role: { id: org.roleIds.admin, name: "Admin" },
      issuedBy: { id: org.userId, name: "Acme Owner" },
      workspace: { id: org.workspaceId, name: "Default", slug: "default" },
      status: "ACTIVE",
      statusAt: null,
    });
    expect(e).toMatchObject({ status: "EXPIRED", statusAt: new Date("2026-01-06T00:00:00Z"), lastUsedAt: null });
    expect(r).toMatchObject({ status: "REVOKED", statusAt: new Date("2026-01-03T00:00:00Z") });
    expect(JSON.stringify(list)).not.toContain(active.value);
    expect(Object.keys(a!)).not.toContain("hash");
  });

  it("keeps showing the issuer after they were removed", async () => {
    const org = await createTestOrg(t.db);
    const member = await createTestMember(t.db, org);
    const key = await createTestKey(t.db, org);
    await t.db.update(apiKeys).set({ issuedByUserId: member.user.id }).where(eq(apiKeys.id, key.id));
    await t.db.delete(memberships).where(eq(memberships.userId, member.user.id));
    await t.db.update(users).set({ deletedAt: new Date() }).where(eq(users.id, member.user.id));
    const [item] = await listApiKeys(t.db, ownerActor(org));
    expect(item?.issuedBy).toEqual({ id: member.user.id, name: member.user.name, email: member.user.email });
  });

  /*
   * Protects the owner from a list that says "Active" about a key the API refuses: the status stays the
   * spec's, and inoperativeReason says why the key answers 401 — checked against the real pipeline, through
   * the real removeMember and updateRole. createApiKey is owner-only, so a member-issued key is made by
   * re-pointing the issuer, as in the test above.
   */
  it("flags an Active key the API refuses (issuer removed, role without API access) and only Active ones", async () => {
    const org = await createTestOrg(t.db);
    const owner = ownerActor(org);
    const member = await createTestMember(t.db, org);
    const role = await createTestRole(t.db, org.organisationId, { apiAccess: true });
    const byMember = await createTestKey(t.db, org, { name: "by member" });
    const byMemberOfRole = await createTestKey(t.db, org, { name: "by member, of role", roleId: role });
    const byMemberRevoked = await createTestKey(t.db, org, { name: "by member, revoked", revokedAt: new Date("2025-01-01T00:00:00Z") });
    for (const key of [byMember, byMemberOfRole, byMemberRevoked]) {
      await t.db.update(apiKeys).set({ issuedByUserId: member.user.id }).where(eq(apiKeys.id, key.id));
    }
    const ofRole = await createTestKey(t.db, org, { name: "of role", roleId: role });
    await createTestKey(t.db, org, { name: "of role, expired", roleId: role, expiresAt: new Date("2025-01-01T00:00:00Z") });
    const fine = await createTestKey(t.db, org, { name: "fine" });
    const standing = async () => Object.fromEntries((await listApiKeys(t.db, owner)).map((k) => [k.name, [k.status, k.inoperativeReason]]));

    expect(await standing()).toEqual({
      "by member": ["ACTIVE", null],
      "by member, of role": ["ACTIVE", null],
      "by member, revoked": ["REVOKED", null],
      "of role": ["ACTIVE", null],
      "of role, expired": ["EXPIRED", null],
      fine: ["ACTIVE", null],
    });

    await removeMember(t.db, owner, { userId: member.user.id });
    await updateRole(t.db, owner, { id: role, apiAccess: false });
    expect(await standing()).toEqual({
      "by member": ["ACTIVE", "ISSUER_REMOVED"],
      // Both causes: the removal is named, since restoring the role's access would not bring this key back.
      "by member, of role": ["ACTIVE", "ISSUER_REMOVED"],
      "by member, revoked": ["REVOKED", null],
      "of role": ["ACTIVE", "ROLE_WITHOUT_API_ACCESS"],
      "of role, expired": ["EXPIRED", null],
      fine: ["ACTIVE", null],
    });
    // The list agrees with the API.
    expect(await status(byMember.value)).toBe(401);
    expect(await status(byMemberOfRole.value)).toBe(401);
    expect(await status(ofRole.value)).toBe(401);
    expect(await status(fine.value)).toBe(200);

    // Giving the role API access back makes its key work again, and the flag goes with it.
    await updateRole(t.db, owner, { id: role, apiAccess: true });
    expect(await status(ofRole.value)).toBe(200);
    const after = await standing();
    expect(after["of role"]).toEqual(["ACTIVE", null]);
    expect(after["by member, of role"]).toEqual(["ACTIVE", "ISSUER_REMOVED"]);
    expect(await status(byMemberOfRole.value)).toBe(401);
  });
});
