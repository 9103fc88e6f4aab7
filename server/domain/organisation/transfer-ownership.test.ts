/**
 * Handing the organisation to another member (the owner's password confirms it): the member becomes the owner
 * with the Admin role, the former owner stays an Admin member and loses what is the owner's alone (the API keys
 * page answers them 403, the new owner 200); a wrong password is 422 at `password` and changes nothing; the
 * owner themself, an invitation nobody accepted (409), someone not a member here (404) and a member asking (403)
 * are refused, writing nothing.
 */
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { GET as listKeysRoute } from "@/app/api/app/api-keys/route";
import { POST as ownershipRoute } from "@/app/api/app/members/[userId]/ownership/route";
import { auditEvents, memberships, roles } from "@/server/db/schema";
import { WRONG_PASSWORD } from "@/server/auth/own-password";
import { ownerActor } from "@/server/test/actors";
import { callApp } from "@/server/test/app-http";
import { viaBoundaryNoActor } from "@/server/test/boundary";
import { useTestDb } from "@/server/test/db";
import { createTestOrg } from "@/server/test/factories";
import { addMember } from "./add-member";
import { createOrganisationWithOwner as createParsedOrganisation } from "./create-organisation";
import { ZCreateOwner } from "./schemas";
import { NOT_YET_ACTIVE } from "./transfer-ownership";

const t = useTestDb();
const createOrganisationWithOwner = viaBoundaryNoActor(ZCreateOwner, createParsedOrganisation);
const PASSWORD = "olga's own password";

async function organisation() {
  const org = await createOrganisationWithOwner(t.db, { name: "Olga", email: "olga@example.com", password: PASSWORD, organisationName: "Acme" });
  const roleId = async (builtIn: string) =>
    (await t.db.select().from(roles).where(eq(roles.organisationId, org.organisationId))).find((r) => r.builtIn === builtIn)!.id;
  const actor = ownerActor({ ...org, workspaceId: org.workspaceId });
  const sam = await addMember(t.db, actor, {
    method: "password",
    name: "Sam",
    email: "sam@example.com",
    roleId: await roleId("sender"),
    password: "sam's own password",
  });
  const ivy = await addMember(t.db, actor, { method: "invite", name: "Ivy", email: "ivy@example.com", roleId: await roleId("viewer") });
  return {
    owner: { userId: org.userId, organisationId: org.organisationId },
    sam: { userId: sam.userId, organisationId: org.organisationId },
    ivy: { userId: ivy.userId, organisationId: org.organisationId },
    adminRoleId: await roleId("admin"),
  };
}

const membershipsOf = async (organisationId: string) =>
  Object.fromEntries(
    (await t.db.select().from(memberships).where(eq(memberships.organisationId, organisationId))).map((m) => [
      m.userId,
      { isOwner: m.isOwner, roleId: m.roleId },
    ]),
  );

describe("handing the organisation to another member", () => {
  it("the member becomes the owner with the Admin role; the former owner stays an Admin and loses the owner's pages", async () => {
    const { owner, sam, adminRoleId } = await organisation();
    expect((await callApp(listKeysRoute, { as: sam })).status).toBe(403);
    const res = await callApp(ownershipRoute, { as: owner, params: { userId: sam.userId }, body: { password: PASSWORD } });
    expect(res).toEqual({ status: 200, body: { data: { ownerUserId: sam.userId } } });
    const after = await membershipsOf(owner.organisationId);
    expect(after[sam.userId]).toEqual({ isOwner: true, roleId: adminRoleId });
    expect(after[owner.userId]).toEqual({ isOwner: false, roleId: adminRoleId });
    expect((await callApp(listKeysRoute, { as: sam })).status).toBe(200);
    expect((await callApp(listKeysRoute, { as: owner })).status).toBe(403);
    const [event] = await t.db.select().from(auditEvents).where(eq(auditEvents.action, "member.ownership_transferred"));
    expect(event).toMatchObject({ subjectId: sam.userId, actorUserId: owner.userId, data: { from: owner.userId } });
    // The former owner cannot hand it on again.
    expect((await callApp(ownershipRoute, { as: owner, params: { userId: sam.userId }, body: { password: PASSWORD } })).status).toBe(403);
  });

  it("a wrong password is 422 at password and changes nothing", async () => {
    const { owner, sam } = await organisation();
    const before = await membershipsOf(owner.organisationId);
    const res = await callApp(ownershipRoute, { as: owner, params: { userId: sam.userId }, body: { password: "not it at all" } });
    expect(res).toMatchObject({ status: 422, body: { details: { password: [WRONG_PASSWORD] } } });
    expect(await membershipsOf(owner.organisationId)).toEqual(before);
  });

  it("refuses the owner themself and an invitation nobody accepted (409), another organisation's member (404) and a member asking (403)", async () => {
    const { owner, sam, ivy } = await organisation();
    const before = await membershipsOf(owner.organisationId);
    expect(await callApp(ownershipRoute, { as: owner, params: { userId: owner.userId }, body: { password: PASSWORD } })).toMatchObject({
      status: 409,
      body: { error: "You are already the owner" },
    });
    expect(await callApp(ownershipRoute, { as: owner, params: { userId: ivy.userId }, body: { password: PASSWORD } })).toMatchObject({
      status: 409,
      body: { error: NOT_YET_ACTIVE },
    });
    const other = await createTestOrg(t.db, "Other");
    expect((await callApp(ownershipRoute, { as: owner, params: { userId: other.userId }, body: { password: PASSWORD } })).status).toBe(404);
    expect((await callApp(ownershipRoute, { as: sam, params: { userId: sam.userId }, body: { password: "sam's own password" } })).status).toBe(403);
    expect(await membershipsOf(owner.organisationId)).toEqual(before);
    expect(await t.db.select().from(auditEvents).where(eq(auditEvents.action, "member.ownership_transferred"))).toEqual([]);
  });
});
