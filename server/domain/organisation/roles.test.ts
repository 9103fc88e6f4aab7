/**
 * Roles as the owner manages them: custom roles carry the spec's permissions and keys act with them at once
 * (taking API access away makes the role's keys answer 401); built-in Admin, Sender and Viewer are read-only;
 * a role in use cannot be deleted; names are unique per organisation; counts are per organisation.
 */
import { describe, expect, it } from "vitest";
import { GET as getAccount } from "@/app/api/v1/account/route";
import { assertGates } from "@/server/domain/access/gates";
import type { TOperation } from "@/server/domain/operation";
import { roles } from "@/server/db/schema";
import { AppError } from "@/server/lib/errors";
import { createTestMember, ownerActor } from "@/server/test/actors";
import { useTestDb } from "@/server/test/db";
import { createTestKey, createTestOrg } from "@/server/test/factories";
import { callJson, callRoute } from "@/server/test/http";
import { createRole as createParsedRole } from "./create-role";
import { viaBoundary } from "@/server/test/boundary";
import { ZCreateRole, ZUpdateRole } from "./schemas";
import { deleteRole } from "./delete-role";
import { listRoles } from "./list-roles";
import { appCreateRole, appDeleteRole, appListRoles, appUpdateRole } from "./operations";
import { isUniqueViolation } from "./unique-violation";
import { updateRole as updateParsedRole } from "./update-role";

const t = useTestDb();
// The routes parse before the domain runs; these calls go through the same boundary (server/test/boundary.ts).
const createRole = viaBoundary(ZCreateRole, createParsedRole);
const updateRole = viaBoundary(ZUpdateRole, updateParsedRole);

async function rejection(promise: Promise<unknown>): Promise<AppError> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(AppError);
  return err as AppError;
}

describe("roles", () => {
  it("lists the built-in roles first with member and key counts of this organisation only", async () => {
    const org = await createTestOrg(t.db);
    const other = await createTestOrg(t.db, "Other");
    await createTestKey(t.db, org);
    await createTestKey(t.db, org, { revokedAt: new Date() });
    await createTestKey(t.db, other);
    await createTestMember(t.db, org, org.roleIds.viewer);
    const id = (await createRole(t.db, ownerActor(org), { name: "Integrations", apiAccess: true })).id;
    const roles = await listRoles(t.db, ownerActor(org));
    expect(roles.map((r) => [r.name, r.builtIn, r.memberCount, r.keyCount, r.deletable])).toEqual([
      ["Admin", "admin", 1, 1, false],
      ["Sender", "sender", 0, 0, false],
      ["Viewer", "viewer", 1, 0, false],
      ["Integrations", null, 0, 0, true],
    ]);
    expect(roles[3]).toMatchObject({ id, apiAccess: true, canSendPackages: false, templateAccess: "USE" });
    expect(roles.slice(0, 3).map((r) => r.apiAccess)).toEqual([true, false, false]);
  });

  it("a key acts with its role's current permissions; taking API access away makes its keys 401", async () => {
    const org = await createTestOrg(t.db);
    const owner = ownerActor(org);
    const { id } = await createRole(t.db, owner, { name: "Robots", apiAccess: true, canSendPackages: true, templateAccess: "CREATE" });
    const key = await createTestKey(t.db, org, { roleId: id });
    const before = await callJson<{ data: { role: { permissions: Record<string, unknown> } } }>(getAccount, { key: key.value });
    expect(before.body.data.role.permissions).toMatchObject({ apiAccess: true, canSendPackages: true, templateAccess: "CREATE" });
    await updateRole(t.db, owner, { id, canSendPackages: false });
    const after = await callJson<{ data: { role: { name: string; permissions: Record<string, unknown> } } }>(getAccount, { key: key.value });
    expect(after.body.data.role).toMatchObject({ name: "Robots", permissions: { canSendPackages: false, templateAccess: "CREATE" } });
    await updateRole(t.db, owner, { id, apiAccess: false });
    expect((await callRoute(getAccount, { key: key.value })).status).toBe(401);
  });

  it("built-in roles are read-only (403) and cannot be deleted", async () => {
    const org = await createTestOrg(t.db);
    const owner = ownerActor(org);
    const update = await rejection(updateRole(t.db, owner, { id: org.roleIds.sender, apiAccess: true }));
    expect([update.status, update.message]).toEqual([403, "Built-in roles are read-only"]);
    expect((await rejection(deleteRole(t.db, owner, { id: org.roleIds.viewer }))).status).toBe(403);
  });

  it("refuses a duplicate name (409, any case), and deleting a role in use (409)", async () => {
    const org = await createTestOrg(t.db);
    const owner = ownerActor(org);
    expect((await rejection(createRole(t.db, owner, { name: "admin" }))).status).toBe(409);
    const a = await createRole(t.db, owner, { name: "A", apiAccess: true });
    const b = await createRole(t.db, owner, { name: "B" });
    const renamed = await rejection(updateRole(t.db, owner, { id: b.id, name: "a" }));
    expect([renamed.status, renamed.message]).toEqual([409, 'A role named "a" already exists (names are compared regardless of case)']);
    // The index refuses the pair too (migration 0038), so two concurrent creations cannot both pass the check.
    const raced = await t.db
      .insert(roles)
      .values({ id: "role_race", organisationId: org.organisationId, name: "a" })
      .then(
        () => null,
        (e: unknown) => e,
      );
    expect(isUniqueViolation(raced)).toBe(true);
    await updateRole(t.db, owner, { id: a.id, name: "A" }); // its own name is fine

    const member = await createTestMember(t.db, org, b.id);
    const inUse = await rejection(deleteRole(t.db, owner, { id: b.id }));
    expect(inUse.status).toBe(409);
    expect(inUse.message).toContain("1 member(s)");
    await createTestKey(t.db, org, { roleId: a.id, revokedAt: new Date() });
    expect((await rejection(deleteRole(t.db, owner, { id: a.id }))).message).toContain("1 API key(s)");
    expect(member.role.id).toBe(b.id);

    const c = await createRole(t.db, owner, { name: "C" });
    expect(await deleteRole(t.db, owner, { id: c.id })).toEqual({ id: c.id, deleted: true });
    expect((await listRoles(t.db, owner)).map((r) => r.name)).not.toContain("C");
  });

  it("is the owner's alone and never reaches another organisation", async () => {
    const org = await createTestOrg(t.db);
    const other = await createTestOrg(t.db, "Other");
    const member = await createTestMember(t.db, org);
    // The operations declare it; the route wrapper checks the declared gates before the domain function runs.
    for (const op of [appCreateRole, appUpdateRole, appDeleteRole]) {
      expect(() => assertGates(member, op)).toThrow("Only the organisation's owner can do this");
      expect(() => assertGates(ownerActor(org), op)).not.toThrow();
    }
    expect(() => assertGates(member, appListRoles as TOperation)).not.toThrow();
    const foreign = await createRole(t.db, ownerActor(other), { name: "Theirs" });
    expect((await rejection(updateRole(t.db, ownerActor(org), { id: foreign.id, name: "Mine" }))).status).toBe(404);
    expect((await rejection(deleteRole(t.db, ownerActor(org), { id: foreign.id }))).status).toBe(404);
    const invalid = await rejection(createRole(t.db, ownerActor(org), { name: "Y", templateAccess: "ALL" as "USE" }));
    expect(Object.keys(invalid.details ?? {})).toEqual(["templateAccess"]);
  });
});
