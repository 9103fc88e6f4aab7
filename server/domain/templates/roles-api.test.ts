/**
 * Protects the roles API (ops 40–43): roles are addressed by their position (roleIndex); inserting at `order`
 * moves the later ones down, moving a role closes the gap it leaves, deleting one deletes its fields and moves
 * the later ones up — fields follow their role, not a position. Signing groups must be the workspace's (422),
 * `order` past the end is 422, a missing roleIndex 404, USE keys get 403 on writes, and another workspace's
 * key gets 404 on every role route.
 */
import { describe, expect, it } from "vitest";
import * as rolesOne from "@/app/api/v1/templates/[templateId]/roles/[roleIndex]/route";
import * as rolesRoute from "@/app/api/v1/templates/[templateId]/roles/route";
import * as fieldsRoute from "@/app/api/v1/templates/[templateId]/fields/route";
import * as list from "@/app/api/v1/templates/route";
import { expectOtherWorkspaceGets404 } from "@/server/test/cross-workspace";
import { useTestDb } from "@/server/test/db";
import { createTestWorkspace } from "@/server/test/factories";
import { callJson } from "@/server/test/http";
import { insertDocument, insertSigningGroup, templatesOrg } from "./test-support/fixtures";

const t = useTestDb();

type TRole = { roleIndex: number; id: string; name: string; signingGroupId: string | null };
type TBody<T> = { data: T; error?: string; details?: Record<string, string[]> };

async function setup() {
  const ctx = await templatesOrg(t.db);
  const tpl = (await callJson<TBody<{ id: string }>>(list.POST, { key: ctx.key, body: { name: "Lease" } })).body.data;
  const p = { templateId: tpl.id };
  const add = (body: unknown, key = ctx.key) => callJson<TBody<TRole>>(rolesRoute.POST, { key, params: p, body });
  const names = async () =>
    (await callJson<TBody<{ roles: TRole[] }>>(rolesRoute.GET, { key: ctx.key, params: p })).body.data.roles.map((r) => `${r.roleIndex}:${r.name}`);
  return { ...ctx, tpl, p, add, names };
}

describe("roles", () => {
  it("adds last by default and inserts at `order`, moving the later roles down; 422 past the end", async () => {
    const { add, names } = await setup();
    expect((await add({ name: "Tenant" })).body.data).toMatchObject({ roleIndex: 0, name: "Tenant", signingGroupId: null });
    expect((await add({ name: "Landlord" })).status).toBe(201);
    expect((await add({ name: "Agent", order: 0 })).body.data.roleIndex).toBe(0);
    expect((await add({ name: "Witness", order: 2 })).body.data.roleIndex).toBe(2);
    expect(await names()).toEqual(["0:Agent", "1:Tenant", "2:Witness", "3:Landlord"]);
    const past = await add({ name: "Nobody", order: 5 });
    expect(past.status).toBe(422);
    expect(past.body.details?.order?.[0]).toContain("at most 4");
    expect((await add({ name: "" })).body.details).toHaveProperty("name");
    expect((await add({ name: "Far", order: 2 ** 40 })).body.details).toHaveProperty("order");
  });

  it("renames, sets and clears a signing group of the workspace only (422 otherwise), and moves roles both ways", async () => {
    const { org, key, p, add, names } = await setup();
    for (const name of ["A", "B", "C", "D"]) await add({ name });
    const group = await insertSigningGroup(t.db, org, org.workspaceId);
    const elsewhere = await insertSigningGroup(t.db, org, await createTestWorkspace(t.db, org.organisationId, "other"));
    const patch = (roleIndex: number | string, body: unknown) =>
      callJson<TBody<TRole>>(rolesOne.PATCH, { key, params: { ...p, roleIndex: String(roleIndex) }, body });

    expect((await patch(1, { name: "Buyer", signingGroupId: group })).body.data).toMatchObject({ roleIndex: 1, name: "Buyer", signingGroupId: group });
    const foreign = await patch(1, { signingGroupId: elsewhere });
    expect(foreign.status).toBe(422);
    expect(foreign.body.details).toHaveProperty("signingGroupId");
    expect((await add({ name: "E", signingGroupId: "sgrp_missing" })).body.details).toHaveProperty("signingGroupId");
    expect((await patch(1, { signingGroupId: null })).body.data.signingGroupId).toBeNull();

    expect((await patch(0, { order: 2 })).body.data.roleIndex).toBe(2);
    expect(await names()).toEqual(["0:Buyer", "1:C", "2:A", "3:D"]);
    expect((await patch(3, { order: 0 })).body.data.roleIndex).toBe(0);
    expect(await names()).toEqual(["0:D", "1:Buyer", "2:C", "3:A"]);
    expect((await patch(1, { order: 4 })).status).toBe(422);
    expect((await patch(9, { name: "X" })).status).toBe(404);
    expect((await patch("first", { name: "X" })).status).toBe(422);
    expect((await patch("99999999999", { name: "X" })).status).toBe(422);
  });

  it("deletes a role with its fields and moves the later roles up; fields keep following their role", async () => {
    const { org, key, p, add, names } = await setup();
    for (const name of ["A", "B", "C"]) await add({ name });
    const documentId = await insertDocument(t.db, org, p.templateId);
    const place = (roleIndex: number) =>
      callJson<TBody<{ id: string; roleIndex: number }>>(fieldsRoute.POST, {
        key,
        params: p,
        body: { documentId, roleIndex, type: "signature", page: 1, x: 10, y: 10 + roleIndex * 50, width: 100, height: 30 },
      });
    await place(0);
    const b = (await place(1)).body.data;
    const c = (await place(2)).body.data;

    const res = await callJson<TBody<unknown>>(rolesOne.DELETE, { key, params: { ...p, roleIndex: "0" } });
    expect(res.body.data).toEqual({ roleIndex: 0, deleted: true });
    expect(await names()).toEqual(["0:B", "1:C"]);
    const fields = (await callJson<TBody<{ fields: { id: string; roleIndex: number }[] }>>(fieldsRoute.GET, { key, params: p })).body.data.fields;
    expect(fields.map((f) => [f.id, f.roleIndex])).toEqual([
      [b.id, 0],
      [c.id, 1],
    ]);
    // Moving C first carries its field along.
    await callJson(rolesOne.PATCH, { key, params: { ...p, roleIndex: "1" }, body: { order: 0 } });
    const moved = (await callJson<TBody<{ fields: { id: string; roleIndex: number }[] }>>(fieldsRoute.GET, { key, params: p })).body.data.fields;
    expect(moved.find((f) => f.id === c.id)?.roleIndex).toBe(0);
    expect((await callJson(rolesOne.DELETE, { key, params: { ...p, roleIndex: "5" } })).status).toBe(404);
  });

  it("USE keys read roles but get 403 on writes; another workspace's key gets 404 on every role route", async () => {
    const { org, key, useKey, p, add } = await setup();
    await add({ name: "A" });
    expect((await callJson(rolesRoute.GET, { key: useKey, params: p })).status).toBe(200);
    expect((await add({ name: "B" }, useKey)).status).toBe(403);
    expect((await callJson(rolesOne.PATCH, { key: useKey, params: { ...p, roleIndex: "0" }, body: { name: "Z" } })).status).toBe(403);
    expect((await callJson(rolesOne.DELETE, { key: useKey, params: { ...p, roleIndex: "0" } })).status).toBe(403);

    const role0 = { ...p, roleIndex: "0" };
    await expectOtherWorkspaceGets404(t.db, rolesRoute.GET, { org, params: p, ownKey: key });
    await expectOtherWorkspaceGets404(t.db, rolesRoute.POST, { org, params: p, body: { name: "X" } });
    await expectOtherWorkspaceGets404(t.db, rolesOne.PATCH, { org, params: role0, body: { name: "X" }, ownKey: key });
    await expectOtherWorkspaceGets404(t.db, rolesOne.DELETE, { org, params: role0 });
    const roles = (await callJson<TBody<{ roles: TRole[] }>>(rolesRoute.GET, { key, params: p })).body.data.roles;
    expect(roles.map((r) => r.name)).toEqual(["X"]);
  });
});
