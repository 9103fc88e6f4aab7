/**
 * Protects how organisation and key changes are attributed: the acting member and the address the request came
 * from (the Activity page's "From"), on the organisation's chain or the key's workspace; the operator's plan
 * change names no user and no address and says `by: "operator"`.
 */
import { and, eq, inArray } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { auditEvents } from "@/server/db/schema";
import { createApiKey } from "@/server/domain/keys/create-api-key";
import { createRole } from "@/server/domain/organisation/create-role";
import { setPlan } from "@/server/domain/organisation/set-plan";
import { ownerActor } from "@/server/test/actors";
import { useTestDb } from "@/server/test/db";
import { createTestOrg } from "@/server/test/factories";

const t = useTestDb();

describe("organisation and key audit attribution", () => {
  it("records the member and their address for role and key changes, and the operator for a plan change", async () => {
    const org = await createTestOrg(t.db);
    const actor = { ...ownerActor(org), clientAddress: "203.0.113.7" };
    const roleInput = {
      name: "Integrations",
      apiAccess: true,
      canSendPackages: false,
      canViewAllPackages: false,
      canManageWebhooks: false,
      templateAccess: "USE" as const,
    };
    const role = await createRole(t.db, actor, roleInput);
    const key = await createApiKey(t.db, actor, { name: "CRM", roleId: org.roleIds.admin, workspaceId: org.workspaceId });
    await setPlan(t.db, { organisationId: org.organisationId, webhooks: false });

    const rows = await t.db
      .select({
        action: auditEvents.action,
        subjectType: auditEvents.subjectType,
        subjectId: auditEvents.subjectId,
        workspaceId: auditEvents.workspaceId,
        actorUserId: auditEvents.actorUserId,
        apiKeyId: auditEvents.apiKeyId,
        clientAddress: auditEvents.clientAddress,
        data: auditEvents.data,
      })
      .from(auditEvents)
      .where(
        and(eq(auditEvents.organisationId, org.organisationId), inArray(auditEvents.action, ["role.created", "api_key.created", "organisation.plan_changed"])),
      )
      .orderBy(auditEvents.action);
    const none = { apiKeyId: null, clientAddress: null };
    const fromApp = { apiKeyId: null, clientAddress: "203.0.113.7" };
    expect(rows).toEqual([
      {
        action: "api_key.created",
        subjectType: "api_key",
        subjectId: key.id,
        workspaceId: org.workspaceId,
        actorUserId: org.userId,
        ...fromApp,
        data: { name: "CRM", prefix: key.prefix, roleId: org.roleIds.admin, expiresAt: null },
      },
      {
        action: "organisation.plan_changed",
        subjectType: "organisation",
        subjectId: org.organisationId,
        workspaceId: null,
        actorUserId: null,
        ...none,
        data: { by: "operator", webhooks: false },
      },
      {
        action: "role.created",
        subjectType: "role",
        subjectId: role.id,
        workspaceId: null,
        actorUserId: org.userId,
        ...fromApp,
        data: roleInput,
      },
    ]);
  });
});
