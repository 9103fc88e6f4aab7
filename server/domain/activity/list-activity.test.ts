/**
 * The organisation's activity (Settings → Activity): the owner reads who changed members, roles, keys, workspaces,
 * webhook endpoints and settings, newest first, one sentence each, narrowed by area and paged; packages' events
 * are not in it, nor another organisation's; a member gets 403, a bad area 422 at `area`.
 */
import { describe, expect, it } from "vitest";
import { GET as activityRoute } from "@/app/api/app/activity/route";
import { createApiKey } from "@/server/domain/keys/create-api-key";
import { revokeApiKey } from "@/server/domain/keys/revoke-api-key";
import { addMember } from "@/server/domain/organisation/add-member";
import { changeMemberRole } from "@/server/domain/organisation/change-member-role";
import { createWorkspace } from "@/server/domain/organisation/create-workspace";
import { deleteWorkspace } from "@/server/domain/organisation/delete-workspace";
import { removeMember } from "@/server/domain/organisation/remove-member";
import { renameWorkspace } from "@/server/domain/organisation/rename-workspace";
import { setIpAllowlist } from "@/server/domain/organisation/set-ip-allowlist";
import { createSigningGroup } from "@/server/domain/signing-groups/create-signing-group";
import { createEndpoint } from "@/server/domain/webhooks/endpoints/create-endpoint";
import { deleteEndpoint } from "@/server/domain/webhooks/endpoints/delete-endpoint";
import { rotateEndpointSecret } from "@/server/domain/webhooks/endpoints/rotate-endpoint-secret";
import { recordAudit } from "@/server/domain/audit/record-audit";
import type { TActor } from "@/server/domain/access/actor";
import { setClock } from "@/server/lib/clock";
import { createTestMember, ownerActor } from "@/server/test/actors";
import { callApp } from "@/server/test/app-http";
import { useTestDb } from "@/server/test/db";
import { createTestOrg } from "@/server/test/factories";
import { AUDIT_SUBJECTS } from "@/server/domain/audit/audit-actions";
import { recordFailedSignIn } from "@/server/domain/member-sessions/record-failed-sign-in";
import { startMemberSession } from "@/server/domain/member-sessions/start-member-session";
import { describeActivity } from "./describe-activity";
import { AREA_SUBJECTS } from "./list-activity";
import type { TActivityList } from "./schemas";

const t = useTestDb();

/** Each change one second after the last, so "newest first" has one answer. */
function tickingClock(start: Date) {
  let at = start.getTime();
  setClock(() => new Date((at += 1000)));
}

async function scenario() {
  tickingClock(new Date("2026-11-02T09:00:00Z"));
  const org = await createTestOrg(t.db);
  const owner = ownerActor(org);
  const key = await createApiKey(t.db, owner, { name: "CI", roleId: org.roleIds.admin, workspaceId: org.workspaceId });
  // An endpoint registered through the key (/api/v1): the owner, through "CI".
  const endpoint = await createEndpoint(t.db, { ...owner, apiKey: { id: key.id } as TActor["apiKey"] }, { url: "https://93.184.216.34/hook" });
  await revokeApiKey(t.db, owner, { id: key.id });
  const sam = await addMember(t.db, owner, { method: "invite", name: "Sam Jones", email: "sam@example.com", roleId: org.roleIds.viewer });
  await changeMemberRole(t.db, owner, { userId: sam.userId, roleId: org.roleIds.sender });
  const ws = await createWorkspace(t.db, owner, { name: "Sales", slug: "sales" });
  await renameWorkspace(t.db, owner, { id: ws.id, name: "Sales EMEA", slug: "sales" });
  await rotateEndpointSecret(t.db, owner, { endpointId: endpoint.id });
  await deleteEndpoint(t.db, owner, { endpointId: endpoint.id });
  await setIpAllowlist(t.db, { ...owner, clientAddress: "192.0.2.44" }, { entries: ["203.0.113.0/24"] });
  await createSigningGroup(t.db, owner, { name: "Legal", members: [{ email: "lee@example.com", name: "Lee" }] });
  const temp = await createWorkspace(t.db, owner, { name: "Scratch", slug: "scratch" });
  await deleteWorkspace(t.db, owner, temp.id);
  await removeMember(t.db, owner, { userId: sam.userId });
  return { org, owner };
}

const read = (as: { userId: string; organisationId: string }, query: Record<string, string | number> = {}) =>
  callApp<{ data: TActivityList; error?: string; details?: unknown }>(activityRoute, { as, query });

describe("the organisation's activity", () => {
  it("tells the owner each administrative change, newest first, with who did it and where", async () => {
    const { org } = await scenario();
    const res = await read(org, { pageSize: 100 });
    expect(res.status).toBe(200);
    const events = res.body.data.events;
    expect(events.map((e) => e.summary)).toEqual([
      "Removed Sam Jones (sam@example.com)",
      "Deleted the workspace “Scratch”",
      "Created the workspace “Scratch”",
      "Created the signing group “Legal”",
      "Set the API’s IP allowlist to 203.0.113.0/24",
      "Deleted the webhook endpoint https://93.184.216.34/hook",
      "Rotated the signing secret of https://93.184.216.34/hook",
      "Renamed the workspace “Sales” to “Sales EMEA”",
      "Created the workspace “Sales”",
      "Gave Sam Jones (sam@example.com) the role Sender",
      "Invited Sam Jones (sam@example.com) as Viewer",
      "Revoked the API key “CI”",
      "Added the webhook endpoint https://93.184.216.34/hook",
      expect.stringMatching(/^Created the API key “CI” \(fsk_[A-Za-z0-9_-]{4,}…\) with the role Admin$/),
      "Created the organisation",
    ]);
    expect(res.body.data.totalCount).toBe(15);
    // Through a key: the key's issuer, and the key by name.
    expect(events.find((e) => e.action === "webhook.endpoint_created")!.actor).toMatchObject({ kind: "member", apiKeyName: "CI" });
    // Who: the owner, by name and address; where: the workspace of the change (null for the organisation's own).
    expect(events[0]!.actor).toEqual({ kind: "member", name: "Acme Owner", email: expect.stringMatching(/^owner@acme-/), apiKeyName: null });
    expect(events.find((e) => e.action === "workspace.renamed")).toMatchObject({ area: "workspaces", workspaceName: "Sales EMEA" });
    // From: the address the change was asked from.
    expect(events.find((e) => e.action === "organisation.ip_allowlist_changed")).toMatchObject({
      area: "organisation",
      workspaceName: null,
      clientAddress: "192.0.2.44",
    });
    expect(events.find((e) => e.action === "api_key.created")).toMatchObject({ area: "keys", workspaceName: "Default" });
  });

  it("narrows to one area and pages through it", async () => {
    const { org } = await scenario();
    const members = await read(org, { area: "members" });
    expect(members.body.data.events.map((e) => e.action)).toEqual(["member.removed", "member.role_changed", "member.added"]);
    const keys = await read(org, { area: "keys" });
    expect(keys.body.data.events.map((e) => e.action)).toEqual(["api_key.revoked", "api_key.created"]);
    const webhooks = await read(org, { area: "webhooks", pageSize: 2, page: 2 });
    expect(webhooks.body.data).toMatchObject({ totalCount: 3, page: 2, pageSize: 2 });
    // The endpoint is gone; its address is read from the trail.
    expect(webhooks.body.data.events.map((e) => e.action)).toEqual(["webhook.endpoint_created"]);
    const content = await read(org, { area: "content" });
    expect(content.body.data.events.map((e) => e.summary)).toEqual(["Created the signing group “Legal”"]);
  });

  it("keeps the members' sign-ins and sessions in an area of their own, out of “members”", async () => {
    const { org, owner } = await scenario();
    const sessionId = await startMemberSession(t.db, owner.user, org.organisationId, { clientAddress: "198.51.100.7", userAgent: null });
    await recordFailedSignIn(t.db, owner.user, org.organisationId, { clientAddress: "203.0.113.9", userAgent: null });
    const signIns = await read(org, { area: "sign_ins" });
    expect(signIns.body.data.events.map((e) => [e.action, e.area, e.clientAddress])).toEqual([
      ["member.sign_in_failed", "sign_ins", "203.0.113.9"],
      ["member.signed_in", "sign_ins", "198.51.100.7"],
    ]);
    expect(signIns.body.data.totalCount).toBe(2);
    expect(sessionId).toMatch(/^msn_/);
    const members = await read(org, { area: "members" });
    expect(members.body.data.events.map((e) => e.action)).toEqual(["member.removed", "member.role_changed", "member.added"]);
    const everything = await read(org, { pageSize: 2 });
    expect(everything.body.data.events.map((e) => e.action)).toEqual(["member.sign_in_failed", "member.signed_in"]);
  });

  it("leaves out packages' events and every other organisation's", async () => {
    const { org } = await scenario();
    const other = await createTestOrg(t.db, "Other");
    await createApiKey(t.db, ownerActor(other), { name: "Theirs", roleId: other.roleIds.admin, workspaceId: other.workspaceId });
    await recordAudit(t.db, {
      organisationId: org.organisationId,
      workspaceId: org.workspaceId,
      subjectType: "package",
      subjectId: "pkg_1",
      action: "package.created",
      actorUserId: org.userId,
    });
    const res = await read(org, { pageSize: 100 });
    expect(res.body.data.totalCount).toBe(15);
    expect(res.body.data.events.some((e) => e.action.startsWith("package.") || e.summary.includes("Theirs"))).toBe(false);
    const theirs = await read(other, { pageSize: 100 });
    expect(theirs.body.data.events.map((e) => e.summary)).toEqual([expect.stringMatching(/^Created the API key “Theirs”/), "Created the organisation"]);
  });

  it("is the owner's alone (403 for an admin member); a bad area or page size is 422 at its field", async () => {
    const { org } = await scenario();
    const admin = await createTestMember(t.db, org, org.roleIds.admin);
    const refused = await read({ userId: admin.user.id, organisationId: org.organisationId });
    expect(refused.status).toBe(403);
    const badArea = await read(org, { area: "packages" });
    expect(badArea.status).toBe(422);
    expect(badArea.body).toMatchObject({ details: { area: ["Expected one of: members, sign_ins, keys, workspaces, webhooks, organisation, content"] } });
    const badSize = await read(org, { pageSize: 101 });
    expect(badSize.body).toMatchObject({ details: { pageSize: ["At most 100"] } });
    expect((await callApp(activityRoute, { as: null })).status).toBe(401);
  });
});

describe("describeActivity", () => {
  it("has a sentence for every action of the subjects the page shows (a new action needs one)", () => {
    const none = { users: new Map(), apiKeys: new Map(), roles: new Map(), workspaces: new Map(), endpoints: new Map(), signingGroups: new Map() };
    const actions = [...new Set(Object.values(AREA_SUBJECTS).flat())].flatMap((subject) => AUDIT_SUBJECTS[subject].actions as readonly string[]);
    expect(actions).toHaveLength(44);
    for (const action of actions) {
      const sentence = describeActivity({ action, subjectId: "x", workspaceId: null, data: {} }, none);
      expect(sentence, action).not.toBe(action);
      expect(sentence, action).toMatch(/^[A-Z]/);
    }
    const entries = Array.from({ length: 8 }, (_, i) => `198.51.100.${i}`);
    expect(describeActivity({ action: "organisation.ip_allowlist_changed", subjectId: "x", workspaceId: null, data: { after: entries } }, none)).toBe(
      "Set the API’s IP allowlist to 198.51.100.0, 198.51.100.1, 198.51.100.2, 198.51.100.3, 198.51.100.4 and 3 more",
    );
  });
});
