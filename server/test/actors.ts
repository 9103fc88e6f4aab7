/** Session actors for domain tests: the owner made by createTestOrg, or a fresh member with a given role. */
import type { Db } from "../db/client";
import { memberships, users } from "../db/schema";
import type { TSessionActor } from "../domain/actor";
import { newId } from "../lib/ids";
import type { TTestOrg } from "./factories";

export function ownerActor(org: TTestOrg): TSessionActor {
  return {
    userId: org.userId,
    organisationId: org.organisationId,
    isOwner: true,
    roleId: org.roleIds.admin,
    email: "owner@test",
    name: "Owner",
  };
}

export async function createTestMember(db: Db, org: TTestOrg, roleId = org.roleIds.admin): Promise<TSessionActor> {
  const userId = newId("usr");
  const email = `member-${userId.slice(-8)}@test.example`;
  await db.insert(users).values({ id: userId, email, name: "Member", passwordHash: null });
  await db.insert(memberships).values({ id: newId("mem"), organisationId: org.organisationId, userId, roleId, isOwner: false });
  return { userId, organisationId: org.organisationId, isOwner: false, roleId, email, name: "Member" };
}
