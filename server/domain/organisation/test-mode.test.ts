/**
 * Test mode (issue 23, item 2; docs/decisions/test-mode.md), the workspace side: a test workspace's keys read
 * `fsk_test_…`; a key of one mode never reaches a workspace of the other (404, like any other workspace); a key
 * whose prefix disagrees with its workspace's mode is refused (401); the owner's switch is refused (409) once a
 * package was sent, revokes the workspace's keys, is audited and is a no-op when nothing changes; the API reports
 * the mode; the admin CLI creates a test workspace and a key for a named workspace.
 */
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { GET as getAccount } from "@/app/api/v1/account/route";
import { GET as listWorkspacesRoute } from "@/app/api/v1/workspaces/route";
import { GET as getPackageRoute } from "@/app/api/v1/packages/[packageId]/route";
import { GET as getTemplateRoute } from "@/app/api/v1/templates/[templateId]/route";
import { POST as sendRoute } from "@/app/api/v1/packages/[packageId]/send/route";
import { PUT as testModeRoute } from "@/app/api/app/workspaces/[workspaceId]/test-mode/route";
import { POST as createWorkspaceRoute } from "@/app/api/app/workspaces/route";
import { runAdmin } from "@/server/cli/run-admin";
import { apiKeys, auditEvents, mailMessages, organisations, users, workspaces } from "@/server/db/schema";
import { createApiKey } from "@/server/domain/keys/create-api-key";
import { createActiveTemplate } from "@/server/domain/packages/test-support/fixtures";
import { ownerActor } from "@/server/test/actors";
import { callApp } from "@/server/test/app-http";
import { useTestDb } from "@/server/test/db";
import { createTestKey, createTestOrg, createTestWorkspace } from "@/server/test/factories";
import { callJson, callRoute } from "@/server/test/http";
import { packageFromTemplate } from "@/server/test/package-from-template";
import { SENT_PACKAGES_MESSAGE } from "./set-workspace-test-mode";

const t = useTestDb();

/** An organisation with its live default workspace and a test workspace, a template and a key in each. */
async function twoModes() {
  const org = await createTestOrg(t.db);
  const testWs = await createTestWorkspace(t.db, org.organisationId, "sandbox", { test: true });
  const liveKey = (await createTestKey(t.db, org)).value;
  const testKey = (await createTestKey(t.db, org, { workspaceId: testWs, test: true })).value;
  const liveTpl = await createActiveTemplate(t.db, org);
  const testTpl = await createActiveTemplate(t.db, { ...org, workspaceId: testWs });
  return { org, testWs, liveKey, testKey, liveTpl, testTpl };
}

const owner = (org: { userId: string; organisationId: string }) => ({ userId: org.userId, organisationId: org.organisationId });

describe("test mode: keys and workspaces", () => {
  it("a test workspace's key reads fsk_test_…, a live one's never does; the API reports the mode", async () => {
    const org = await createTestOrg(t.db);
    const testWs = await createTestWorkspace(t.db, org.organisationId, "sandbox", { test: true });
    const actor = ownerActor(org);
    const testKey = await createApiKey(t.db, actor, { name: "sandbox", roleId: org.roleIds.admin, workspaceId: testWs });
    const liveKey = await createApiKey(t.db, actor, { name: "live", roleId: org.roleIds.admin, workspaceId: org.workspaceId });
    expect(testKey.value.startsWith("fsk_test_")).toBe(true);
    expect(testKey.prefix).toBe(testKey.value.slice(0, 15));
    expect(testKey.prefix).toMatch(/^fsk_test_.{6}$/);
    expect(liveKey.value.startsWith("fsk_")).toBe(true);
    expect(liveKey.value.startsWith("fsk_test_")).toBe(false);

    const account = await callJson<{ data: { workspace: { id: string; test: boolean } } }>(getAccount, { key: testKey.value });
    expect(account.status).toBe(200);
    expect(account.body.data.workspace).toEqual({ id: testWs, name: "sandbox", slug: "sandbox", test: true });
    const list = await callJson<{ data: { workspaces: { id: string; test: boolean }[] } }>(listWorkspacesRoute, { key: liveKey.value });
    expect(list.body.data.workspaces).toEqual([{ id: org.workspaceId, name: "Default", slug: "default", isDefault: true, test: false }]);
  });

  it("a key of a test workspace cannot touch a live workspace's package or template, and vice versa: 404", async () => {
    const { liveKey, testKey, liveTpl, testTpl } = await twoModes();
    const livePkg = await packageFromTemplate(liveKey, { templateId: liveTpl.templateId, title: "Live lease" });
    const testPkg = await packageFromTemplate(testKey, { templateId: testTpl.templateId, title: "Test lease" });

    const cross = [
      [testKey, livePkg.id],
      [liveKey, testPkg.id],
    ] as const;
    for (const [key, packageId] of cross) {
      const got = await callJson(getPackageRoute, { key, params: { packageId } });
      expect([got.status, got.body]).toEqual([404, { error: "Package not found" }]);
      const sent = await callJson(sendRoute, { key, params: { packageId }, body: {} });
      expect([sent.status, sent.body]).toEqual([404, { error: "Package not found" }]);
    }
    for (const [key, templateId] of [
      [testKey, liveTpl.templateId],
      [liveKey, testTpl.templateId],
    ] as const) {
      const got = await callJson(getTemplateRoute, { key, params: { templateId } });
      expect([got.status, got.body]).toEqual([404, { error: "Template not found" }]);
    }
    // Each key still reaches its own.
    expect((await callRoute(getPackageRoute, { key: testKey, params: { packageId: testPkg.id } })).status).toBe(200);
    expect((await callRoute(getPackageRoute, { key: liveKey, params: { packageId: livePkg.id } })).status).toBe(200);
  });

  it("a key whose prefix disagrees with its workspace's mode is 401 (never issued so; a guard, not a path)", async () => {
    const org = await createTestOrg(t.db);
    const testWs = await createTestWorkspace(t.db, org.organisationId, "sandbox", { test: true });
    const liveValueInTest = (await createTestKey(t.db, org, { workspaceId: testWs })).value;
    const testValueInLive = (await createTestKey(t.db, org, { test: true })).value;
    for (const key of [liveValueInTest, testValueInLive]) {
      const res = await callJson(getAccount, { key });
      expect([res.status, res.body]).toEqual([401, { error: "Unauthorized" }]);
    }
  });
});

describe("test mode: the owner's switch", () => {
  it("creates a test workspace from the app, and switches a workspace that has sent nothing, revoking its keys", async () => {
    const org = await createTestOrg(t.db);
    const created = await callApp<{ data: { id: string; isTest: boolean } }>(createWorkspaceRoute, {
      as: owner(org),
      body: { name: "Sandbox", slug: "sandbox", test: true },
    });
    expect(created.status).toBe(201);
    expect(created.body.data.isTest).toBe(true);

    const liveKey = await createApiKey(t.db, ownerActor(org), { name: "live", roleId: org.roleIds.admin, workspaceId: org.workspaceId });
    const other = await createApiKey(t.db, ownerActor(org), { name: "sandbox", roleId: org.roleIds.admin, workspaceId: created.body.data.id });
    const tpl = await createActiveTemplate(t.db, org);
    await packageFromTemplate(liveKey.value, { templateId: tpl.templateId, title: "A draft" });

    const switched = await callApp<{ data: { id: string; isTest: boolean; keysRevoked: number } }>(testModeRoute, {
      as: owner(org),
      params: { workspaceId: org.workspaceId },
      body: { test: true },
    });
    expect(switched.status).toBe(200);
    expect(switched.body.data).toMatchObject({ id: org.workspaceId, isTest: true, keysRevoked: 1 });
    expect((await callJson(getAccount, { key: liveKey.value })).status).toBe(401);
    // The other workspace's key is untouched.
    expect((await callRoute(getAccount, { key: other.value })).status).toBe(200);
    const [ws] = await t.db.select({ isTest: workspaces.isTest }).from(workspaces).where(eq(workspaces.id, org.workspaceId));
    expect(ws!.isTest).toBe(true);
    const [audit] = await t.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.subjectId, org.workspaceId), eq(auditEvents.action, "workspace.test_mode_changed")));
    expect(audit!.data).toEqual({ test: true, keysRevoked: [liveKey.prefix] });

    // The same mode again changes nothing: no key revoked, no second audit event.
    const fresh = await createApiKey(t.db, ownerActor(org), { name: "sandbox 2", roleId: org.roleIds.admin, workspaceId: org.workspaceId });
    expect(fresh.value.startsWith("fsk_test_")).toBe(true);
    const again = await callApp<{ data: { keysRevoked: number } }>(testModeRoute, {
      as: owner(org),
      params: { workspaceId: org.workspaceId },
      body: { test: true },
    });
    expect([again.status, again.body.data.keysRevoked]).toEqual([200, 0]);
    expect((await callRoute(getAccount, { key: fresh.value })).status).toBe(200);
    const audits = await t.db.select().from(auditEvents).where(eq(auditEvents.action, "workspace.test_mode_changed"));
    expect(audits).toHaveLength(1);
  });

  it("is refused once the workspace has sent a package (409), and writes nothing", async () => {
    const { org, testWs, testKey, testTpl } = await twoModes();
    const pkg = await packageFromTemplate(testKey, { templateId: testTpl.templateId, title: "Sent in test" });
    expect((await callRoute(sendRoute, { key: testKey, params: { packageId: pkg.id }, body: {} })).status).toBe(200);
    const res = await callApp(testModeRoute, { as: owner(org), params: { workspaceId: testWs }, body: { test: false } });
    expect([res.status, res.body]).toEqual([409, { error: SENT_PACKAGES_MESSAGE }]);
    const [ws] = await t.db.select({ isTest: workspaces.isTest }).from(workspaces).where(eq(workspaces.id, testWs));
    expect(ws!.isTest).toBe(true);
    expect((await callRoute(getAccount, { key: testKey })).status).toBe(200);
  });

  it("owner only (403 for an admin member), 404 for another organisation's workspace, 422 without a boolean", async () => {
    const org = await createTestOrg(t.db);
    const stranger = await createTestOrg(t.db, "Other");
    const res404 = await callApp(testModeRoute, { as: owner(org), params: { workspaceId: stranger.workspaceId }, body: { test: true } });
    expect([res404.status, res404.body]).toEqual([404, { error: "Workspace not found" }]);
    const bad = await callApp<{ details: Record<string, string[]> }>(testModeRoute, { as: owner(org), params: { workspaceId: org.workspaceId }, body: {} });
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body.details)).toEqual(["test"]);
    const { createTestMember } = await import("@/server/test/actors");
    const member = await createTestMember(t.db, org, org.roleIds.admin);
    const forbidden = await callApp(testModeRoute, {
      as: { userId: member.user.id, organisationId: org.organisationId },
      params: { workspaceId: org.workspaceId },
      body: { test: true },
    });
    expect(forbidden.status).toBe(403);
  });
});

describe("test mode: a switch racing a send (PostgreSQL)", () => {
  it.skipIf(!process.env.DATABASE_URL)("either the send goes out live and the switch is 409, or the switch wins and the send is a test send", async () => {
    const outcomes = new Set<string>();
    for (let round = 0; round < 8; round++) {
      const org = await createTestOrg(t.db);
      const key = (await createTestKey(t.db, org)).value;
      const tpl = await createActiveTemplate(t.db, org);
      const pkg = await packageFromTemplate(key, { templateId: tpl.templateId, title: `Race ${round}` });
      const [sent, switched] = await Promise.all([
        callRoute(sendRoute, { key, params: { packageId: pkg.id }, body: {} }),
        callApp(testModeRoute, { as: owner(org), params: { workspaceId: org.workspaceId }, body: { test: true } }),
      ]);
      const [ws] = await t.db.select({ isTest: workspaces.isTest }).from(workspaces).where(eq(workspaces.id, org.workspaceId));
      const [plan] = await t.db.select({ used: organisations.packagesUsed }).from(organisations).where(eq(organisations.id, org.organisationId));
      const mail = await t.db.select({ test: mailMessages.test }).from(mailMessages).where(eq(mailMessages.packageId, pkg.id));
      if (switched.status === 409) {
        // The send committed first: a live send, charged, its mail live.
        expect([sent.status, ws!.isTest, plan!.used, mail.map((m) => m.test)]).toEqual([200, false, 1, [false]]);
        outcomes.add("send first");
      } else {
        expect(switched.status).toBe(200);
        expect(ws!.isTest).toBe(true);
        // The switch committed first; the send either waited and went out as a test send, or (its key revoked
        // before it was read) was refused 401 and changed nothing.
        if (sent.status === 200) {
          expect([plan!.used, mail.map((m) => m.test)]).toEqual([0, [true]]);
          outcomes.add("switch first, test send");
        } else {
          expect([sent.status, plan!.used, mail]).toEqual([401, 0, []]);
          outcomes.add("switch first, key revoked");
        }
      }
    }
    expect(outcomes.size).toBeGreaterThan(0);
  });
});

describe("test mode: the admin CLI", () => {
  async function admin(...argv: string[]) {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runAdmin(argv, async () => t.db, { out: (l) => out.push(l), err: (l) => err.push(l) });
    return { code, out, err: err.join("\n") };
  }

  it("create-workspace --test makes a test workspace, and create-key --workspace NAME issues an fsk_test_ key there", async () => {
    const org = await createTestOrg(t.db);
    const [row] = await t.db.select({ email: users.email }).from(users).where(eq(users.id, org.userId));
    const email = row!.email;
    const made = await admin("create-workspace", "--owner", email, "--name", "QA Sandbox", "--test");
    expect(made.code).toBe(0);
    expect(made.out).toHaveLength(1);
    const [ws] = await t.db.select().from(workspaces).where(eq(workspaces.id, made.out[0]!));
    expect(ws).toMatchObject({ name: "QA Sandbox", slug: "qa-sandbox", isTest: true, isDefault: false, organisationId: org.organisationId });
    expect(made.err).toContain('Created TEST workspace "QA Sandbox" (slug qa-sandbox)');

    const key = await admin("create-key", "--owner", email, "--name", "CI", "--role", "Admin", "--workspace", "QA Sandbox");
    expect(key.code).toBe(0);
    expect(key.out[0]).toMatch(/^fsk_test_/);
    expect(key.err).toContain("in test workspace qa-sandbox");
    const account = await callJson<{ data: { workspace: { id: string; test: boolean } } }>(getAccount, { key: key.out[0] });
    expect(account.body.data.workspace).toMatchObject({ id: ws!.id, test: true });
    const [stored] = await t.db
      .select({ workspaceId: apiKeys.workspaceId })
      .from(apiKeys)
      .where(eq(apiKeys.prefix, key.out[0]!.slice(0, 15)));
    expect(stored!.workspaceId).toBe(ws!.id);

    // Without --test: a live workspace; a key for it by slug is fsk_ without test_.
    const live = await admin("create-workspace", "--owner", email, "--name", "EMEA", "--slug", "emea");
    expect(live.code).toBe(0);
    const liveKey = await admin("create-key", "--owner", email, "--name", "CI2", "--role", "Admin", "--workspace", "emea");
    expect(liveKey.out[0]).toMatch(/^fsk_/);
    expect(liveKey.out[0]!.startsWith("fsk_test_")).toBe(false);

    const unknown = await admin("create-key", "--owner", email, "--name", "CI3", "--role", "Admin", "--workspace", "Nowhere");
    expect([unknown.code, unknown.err]).toEqual([2, 'No workspace with the slug or name "Nowhere". Run `npm run admin -- help`.']);
    const taken = await admin("create-workspace", "--owner", email, "--name", "QA Sandbox", "--test");
    expect([taken.code, taken.err]).toEqual([1, 'Refused: A workspace with the slug "qa-sandbox" already exists']);
    expect((await admin("help")).out.join("\n")).toContain("create-workspace --owner EMAIL --name NAME [--slug SLUG] [--test]");
  });
});
