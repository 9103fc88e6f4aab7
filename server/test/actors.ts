/**
 * Actors for domain tests. `ownerActor` is the owner made by createTestOrg, acting in a workspace of theirs (the
 * default one unless given), with the plan's default features; `createTestMember` adds a member with a role
 * and loads them the way the session door does.
 */
import type { Db } from "../db/client";
import { memberships, users } from "../db/schema";
import type { TActor } from "../domain/access/actor";
import { loadSessionActor } from "../domain/access/load-session-actor";
import { newId } from "../lib/ids";
import type { TTestOrg } from "./factories";

export function ownerActor(
  org: Pick<TTestOrg, "organisationId" | "userId" | "workspaceId"> & { roleIds?: { admin: string } },
  workspace: { id: string; name?: string; slug?: string; isTest?: boolean } = { id: org.workspaceId },
): TActor {
  return {
    organisation: {
      id: org.organisationId,
      name: "Test organisation",
      features: { publicApi: true, webhooks: true, customFields: true },
      ipAllowlist: [],
    },
    workspace: {
      id: workspace.id,
      name: workspace.name ?? "Default",
      slug: workspace.slug ?? "default",
      isDefault: workspace.id === org.workspaceId,
      isTest: workspace.isTest ?? false,
    },
    user: { id: org.userId, email: "owner@test", name: "Owner" },
    isOwner: true,
    role: {
      id: org.roleIds?.admin ?? "role_admin",
      name: "Admin",
      apiAccess: true,
      permissions: { canSendPackages: true, canViewAllPackages: true, canManageWebhooks: true },
      templateAccess: "CREATE",
    },
    apiKey: null,
    requestId: "test",
    clientAddress: null,
  };
}

/** An actor for an organisation and workspace known only by id (engine tests that make their own rows). */
export function workspaceActor(organisationId: string, workspaceId: string): TActor {
  return ownerActor({ organisationId, workspaceId, userId: "usr_test" });
}

export async function createTestMember(db: Db, org: TTestOrg, roleId = org.roleIds.admin, workspaceId?: string): Promise<TActor> {
  const userId = newId("usr");
  const email = `member-${userId.slice(-8)}@test.example`;
  await db.insert(users).values({ id: userId, email, name: "Member", passwordHash: null });
  await db.insert(memberships).values({ id: newId("mem"), organisationId: org.organisationId, userId, roleId, isOwner: false });
  const actor = await loadSessionActor(db, { userId, organisationId: org.organisationId }, { workspaceId });
  if (!actor) throw new Error("the new member could not be loaded");
  return actor;
}
