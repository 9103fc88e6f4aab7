/**
 * Workspaces as the owner manages them: created and renamed with a validated name and slug, slugs unique per
 * organisation (409), names too regardless of case ("Sales" and "sales" → 409, in the domain and at the unique
 * index), the default first in the list, renaming keeps the id (so keys bound to it keep working),
 * and no reach into another organisation.
 */
import { describe, expect, it } from "vitest";
import { GET as listWorkspacesRoute } from "@/app/api/v1/workspaces/route";
import { assertGates } from "@/server/domain/access/gates";
import type { TOperation } from "@/server/domain/operation";
import { workspaces } from "@/server/db/schema";
import { AppError } from "@/server/lib/errors";
import { createTestMember, ownerActor } from "@/server/test/actors";
import { useTestDb } from "@/server/test/db";
import { createTestKey, createTestOrg } from "@/server/test/factories";
import { callJson } from "@/server/test/http";
import { createWorkspace as createParsedWorkspace } from "./create-workspace";
import { viaBoundary } from "@/server/test/boundary";
import { ZRenameWorkspace, ZWorkspaceFields } from "./schemas";
import { listWorkspaces } from "./list-workspaces";
import { appCreateWorkspace, appListWorkspaces, appRenameWorkspace } from "./operations";
import { renameWorkspace as renameParsedWorkspace } from "./rename-workspace";
import { workspaceFieldsConflict, workspaceNameTaken } from "./workspace-fields";

const t = useTestDb();
// The routes parse before the domain runs; these calls go through the same boundary (server/test/boundary.ts).
const createWorkspace = viaBoundary(ZWorkspaceFields, createParsedWorkspace);
const renameWorkspace = viaBoundary(ZRenameWorkspace, renameParsedWorkspace);

async function rejection(promise: Promise<unknown>): Promise<AppError> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(AppError);
  return err as AppError;
}

describe("workspaces", () => {
  it("creates and lists them, the default first; other organisations' are not listed", async () => {
    const org = await createTestOrg(t.db);
    const other = await createTestOrg(t.db, "Other");
    const owner = ownerActor(org);
    await createWorkspace(t.db, owner, { name: "Zurich office", slug: "zurich" });
    await createWorkspace(t.db, owner, { name: "Amsterdam office", slug: "amsterdam" });
    await createWorkspace(t.db, ownerActor(other), { name: "Theirs", slug: "theirs" });
    const member = await createTestMember(t.db, org);
    const list = await listWorkspaces(t.db, member);
    expect(list.map((w) => [w.name, w.slug, w.isDefault])).toEqual([
      ["Default", "default", true],
      ["Amsterdam office", "amsterdam", false],
      ["Zurich office", "zurich", false],
    ]);
  });

  it("validates name and slug by field (422) and refuses a taken slug (409)", async () => {
    const org = await createTestOrg(t.db);
    const owner = ownerActor(org);
    const bad = await rejection(createWorkspace(t.db, owner, { name: " ", slug: "Not A Slug" }));
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.details ?? {}).sort()).toEqual(["name", "slug"]);
    expect((await rejection(createWorkspace(t.db, owner, { name: "x", slug: "a--b" }))).status).toBe(422);
    expect((await rejection(createWorkspace(t.db, owner, { name: "x", slug: "-a" }))).status).toBe(422);
    const taken = await rejection(createWorkspace(t.db, owner, { name: "Another default", slug: "default" }));
    expect([taken.status, taken.message]).toEqual([409, 'A workspace with the slug "default" already exists']);
    // The same slug in another organisation is fine.
    const other = await createTestOrg(t.db, "Other");
    await createWorkspace(t.db, ownerActor(other), { name: "Sales", slug: "sales" });
    await createWorkspace(t.db, owner, { name: "Sales", slug: "sales" });
  });

  it("refuses a name another workspace of the organisation has, in any case (409), and writes nothing", async () => {
    const org = await createTestOrg(t.db);
    const owner = ownerActor(org);
    const sales = await createWorkspace(t.db, owner, { name: "Sales", slug: "sales" });
    const before = await t.db.select().from(workspaces).orderBy(workspaces.id);
    const created = await rejection(createWorkspace(t.db, owner, { name: "sales", slug: "sales-2" }));
    expect([created.status, created.message]).toEqual([409, 'A workspace named "sales" already exists (names are compared regardless of case)']);
    const renamed = await rejection(renameWorkspace(t.db, owner, { id: org.workspaceId, name: "SALES ", slug: "default" }));
    expect([renamed.status, renamed.message]).toEqual([409, 'A workspace named "SALES" already exists (names are compared regardless of case)']);
    expect(await t.db.select().from(workspaces).orderBy(workspaces.id)).toEqual(before);
    // A workspace may change the case of its own name; another organisation may use the name.
    expect(await renameWorkspace(t.db, owner, { id: sales.id, name: "SALES", slug: "sales" })).toMatchObject({ name: "SALES" });
    await createWorkspace(t.db, ownerActor(await createTestOrg(t.db, "Other")), { name: "sales", slug: "sales" });
    // The race two concurrent requests can lose ends at the index, which names the field that clashed.
    const lost = await t.db
      .insert(workspaces)
      .values({ id: "ws_race", organisationId: org.organisationId, name: "sAlEs", slug: "sales-3" })
      .then(
        () => null,
        (e: unknown) => e,
      );
    expect(workspaceFieldsConflict(lost, { name: "sAlEs", slug: "sales-3" })?.message).toBe(workspaceNameTaken("sAlEs"));
    const lostSlug = await t.db
      .insert(workspaces)
      .values({ id: "ws_race", organisationId: org.organisationId, name: "Elsewhere", slug: "sales" })
      .then(
        () => null,
        (e: unknown) => e,
      );
    expect(workspaceFieldsConflict(lostSlug, { name: "Elsewhere", slug: "sales" })?.message).toBe('A workspace with the slug "sales" already exists');
  });

  it("renames name and slug, keeping the id that keys are bound to", async () => {
    const org = await createTestOrg(t.db);
    const owner = ownerActor(org);
    const key = await createTestKey(t.db, org);
    const emea = await createWorkspace(t.db, owner, { name: "EMEA", slug: "emea" });
    const renamed = await renameWorkspace(t.db, owner, { id: org.workspaceId, name: "Head office", slug: "head-office" });
    expect(renamed).toMatchObject({ id: org.workspaceId, name: "Head office", slug: "head-office", isDefault: true });
    const res = await callJson<{ data: { workspaces: unknown[] } }>(listWorkspacesRoute, { key: key.value });
    expect(res.body.data.workspaces).toEqual([{ id: org.workspaceId, name: "Head office", slug: "head-office", isDefault: true, test: false }]);
    expect((await rejection(renameWorkspace(t.db, owner, { id: emea.id, name: "EMEA", slug: "head-office" }))).status).toBe(409);
    await renameWorkspace(t.db, owner, { id: emea.id, name: "Europe", slug: "emea" });
  });

  it("is the owner's alone and never reaches another organisation", async () => {
    const org = await createTestOrg(t.db);
    const other = await createTestOrg(t.db, "Other");
    const member = await createTestMember(t.db, org);
    // The operations declare it; the route wrapper checks the declared gates before the domain function runs.
    for (const op of [appCreateWorkspace, appRenameWorkspace]) {
      expect(() => assertGates(member, op)).toThrow("Only the organisation's owner can do this");
      expect(() => assertGates(ownerActor(org), op)).not.toThrow();
    }
    expect(() => assertGates(member, appListWorkspaces as TOperation)).not.toThrow();
    const foreign = await rejection(renameWorkspace(t.db, ownerActor(org), { id: other.workspaceId, name: "Mine", slug: "mine" }));
    expect(foreign.status).toBe(404);
  });
});
