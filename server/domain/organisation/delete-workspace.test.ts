/**
 * Deleting a workspace (docs/decisions/workspace-deletion.md), through the app's route: a test workspace with a
 * sent package, a webhook endpoint, an API key and a stored file goes entirely — no row of it left, its file
 * deleted from storage, its key 401 —, with an audit event in the default workspace; a live workspace that only
 * ever held drafts goes too; the default workspace and a live one that has sent are refused (409) and a member
 * (403) or another organisation (404) cannot, each writing nothing.
 */
import { Readable } from "node:stream";
import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { GET as getAccount } from "@/app/api/v1/account/route";
import { POST as sendRoute } from "@/app/api/v1/packages/[packageId]/send/route";
import { GET as listRoute } from "@/app/api/app/workspaces/route";
import { DELETE as deleteRoute } from "@/app/api/app/workspaces/[workspaceId]/route";
import { GET as previewRoute } from "@/app/api/app/workspaces/[workspaceId]/deletion/route";
import { queryRows } from "@/server/db/client";
import { auditEvents, documents, packages, workspaces } from "@/server/db/schema";
import { createEndpoint } from "@/server/domain/webhooks/endpoints/create-endpoint";
import { createActiveTemplate } from "@/server/domain/packages/test-support/fixtures";
import { getFileStore } from "@/server/storage/get-file-store";
import { createTestMember, ownerActor } from "@/server/test/actors";
import { callApp } from "@/server/test/app-http";
import { useTestDb } from "@/server/test/db";
import { createTestKey, createTestOrg, createTestWorkspace } from "@/server/test/factories";
import { callJson } from "@/server/test/http";
import { packageFromTemplate } from "@/server/test/package-from-template";
import { DEFAULT_WORKSPACE_KEPT, SENT_WORKSPACE_KEPT } from "./delete-workspace";

const t = useTestDb();
const onPostgres = Boolean(process.env.DATABASE_URL);
const owner = (org: { userId: string; organisationId: string }) => ({ userId: org.userId, organisationId: org.organisationId });

/** Every row of every table that has a workspace_id column, for this workspace (the audit trail aside). */
async function rowsOf(workspaceId: string): Promise<Record<string, number>> {
  const tables = await queryRows<{ table_name: string }>(
    t.db,
    sql`select table_name from information_schema.columns where column_name = 'workspace_id' and table_schema = current_schema() and table_name <> 'audit_events'`,
  );
  const counts: Record<string, number> = {};
  for (const { table_name } of tables) {
    const [row] = await queryRows<{ n: number }>(t.db, sql`select count(*)::int as n from ${sql.identifier(table_name)} where workspace_id = ${workspaceId}`);
    if (row!.n > 0) counts[table_name] = row!.n;
  }
  return counts;
}

/** The number of rows in every table of the schema. */
async function everyTable(): Promise<Record<string, number>> {
  const tables = await queryRows<{ tablename: string }>(t.db, sql`select tablename from pg_tables where schemaname = current_schema() order by tablename`);
  const counts: Record<string, number> = {};
  for (const { tablename } of tables)
    counts[tablename] = (await queryRows<{ n: number }>(t.db, sql`select count(*)::int as n from ${sql.identifier(tablename)}`))[0]!.n;
  return counts;
}

async function sentPackageIn(org: Awaited<ReturnType<typeof createTestOrg>>, workspaceId: string, test: boolean) {
  const key = (await createTestKey(t.db, org, { workspaceId, test })).value;
  const tpl = await createActiveTemplate(t.db, { ...org, workspaceId });
  const pkg = await packageFromTemplate(key, { templateId: tpl.templateId, title: "Lease" });
  expect((await callJson(sendRoute, { key, params: { packageId: pkg.id }, body: {} })).status).toBe(200);
  return { key };
}

describe("deleting a workspace", () => {
  it("a test workspace goes with everything in it: no row left, its stored file deleted, its key 401, audited in the default workspace", async () => {
    const org = await createTestOrg(t.db);
    const sandbox = await createTestWorkspace(t.db, org.organisationId, "sandbox", { test: true });
    const { key } = await sentPackageIn(org, sandbox, true);
    await createEndpoint(t.db, ownerActor(org, { id: sandbox, isTest: true }), { url: "https://93.184.216.34/hook", events: ["PACKAGE_SENT"] });
    const store = await getFileStore();
    const fileKey = `tests/workspace-deletion/${sandbox}`;
    await store.put(fileKey, Readable.from([Buffer.from("%PDF-1.7 a sandbox file")]));
    await t.db.update(documents).set({ storageKey: fileKey }).where(eq(documents.workspaceId, sandbox));
    expect(Object.keys(await rowsOf(sandbox))).toEqual(expect.arrayContaining(["packages", "templates", "api_keys", "webhook_endpoints", "documents"]));

    // The dialog's preview counts what the deletion then takes, and writes nothing.
    const preview = await callApp(previewRoute, { as: owner(org), params: { workspaceId: sandbox } });
    expect(preview).toMatchObject({
      status: 200,
      body: { data: { id: sandbox, name: "sandbox", deleted: { templates: 1, packages: 1, apiKeys: 1, webhookEndpoints: 1 } } },
    });
    expect(Object.keys(await rowsOf(sandbox))).toEqual(expect.arrayContaining(["packages", "templates", "api_keys", "webhook_endpoints", "documents"]));

    const res = await callApp(deleteRoute, { as: owner(org), params: { workspaceId: sandbox } });
    expect(res).toMatchObject({
      status: 200,
      body: { data: { id: sandbox, name: "sandbox", deleted: { templates: 1, packages: 1, apiKeys: 1, webhookEndpoints: 1 } } },
    });
    expect(await rowsOf(sandbox)).toEqual({});
    expect(await t.db.select().from(workspaces).where(eq(workspaces.id, sandbox))).toEqual([]);
    expect(await store.stat(fileKey)).toBeNull();
    expect((await callJson(getAccount, { key })).status).toBe(401);
    const [event] = await t.db.select().from(auditEvents).where(eq(auditEvents.action, "workspace.deleted"));
    expect(event).toMatchObject({
      subjectId: sandbox,
      workspaceId: org.workspaceId,
      actorUserId: org.userId,
      data: { name: "sandbox", test: true, packages: 1 },
    });
    // The organisation's own workspace is untouched.
    expect((await rowsOf(org.workspaceId)).packages ?? 0).toBe(0);
    expect(await t.db.select().from(workspaces).where(eq(workspaces.id, org.workspaceId))).toHaveLength(1);
  });

  it("leaves every table as it was before the workspace was filled, the audit trail aside (rows without a foreign key too)", async () => {
    const org = await createTestOrg(t.db);
    const sandbox = await createTestWorkspace(t.db, org.organisationId, "sandbox", { test: true });
    const before = await everyTable();
    await createEndpoint(t.db, ownerActor(org, { id: sandbox, isTest: true }), { url: "https://93.184.216.34/hook", events: ["PACKAGE_SENT"] });
    await sentPackageIn(org, sandbox, true);
    const filled = await everyTable();
    expect(filled).toMatchObject({ package_event_sequences: before.package_event_sequences! + 1, webhook_deliveries: before.webhook_deliveries! + 1 });

    expect((await callApp(deleteRoute, { as: owner(org), params: { workspaceId: sandbox } })).status).toBe(200);
    const after = await everyTable();
    const audited = after.audit_events! - before.audit_events!;
    expect(audited).toBeGreaterThan(0);
    expect(after).toEqual({ ...before, workspaces: before.workspaces! - 1, audit_events: before.audit_events! + audited });
  });

  it("a live workspace that only ever held drafts can go; one that has sent, and the default one, stay (409), unchanged", async () => {
    const org = await createTestOrg(t.db);
    const drafts = await createTestWorkspace(t.db, org.organisationId, "drafts");
    const draftKey = (await createTestKey(t.db, org, { workspaceId: drafts })).value;
    const tpl = await createActiveTemplate(t.db, { ...org, workspaceId: drafts });
    await packageFromTemplate(draftKey, { templateId: tpl.templateId, title: "Only a draft" });
    expect((await callApp(deleteRoute, { as: owner(org), params: { workspaceId: drafts } })).status).toBe(200);
    expect(await rowsOf(drafts)).toEqual({});

    const sending = await createTestWorkspace(t.db, org.organisationId, "sending");
    await sentPackageIn(org, sending, false);
    const before = await rowsOf(sending);
    // The list says which workspaces have sent, so the app offers neither Delete nor a switch of mode there.
    const listed = await callApp(listRoute, { as: owner(org) });
    expect((listed.body as { data: { name: string; hasSent: boolean }[] }).data.map((w) => [w.name, w.hasSent])).toEqual([
      ["Default", false],
      ["sending", true],
    ]);
    expect(await callApp(deleteRoute, { as: owner(org), params: { workspaceId: sending } })).toMatchObject({
      status: 409,
      body: { error: SENT_WORKSPACE_KEPT },
    });
    expect(await callApp(deleteRoute, { as: owner(org), params: { workspaceId: org.workspaceId } })).toMatchObject({
      status: 409,
      body: { error: DEFAULT_WORKSPACE_KEPT },
    });
    // The preview answers the same refusals, so the dialog says so before a name is typed.
    for (const [workspaceId, error] of [
      [sending, SENT_WORKSPACE_KEPT],
      [org.workspaceId, DEFAULT_WORKSPACE_KEPT],
    ] as const) {
      expect(await callApp(previewRoute, { as: owner(org), params: { workspaceId } })).toMatchObject({ status: 409, body: { error } });
    }
    expect(await rowsOf(sending)).toEqual(before);
    expect(await t.db.select().from(auditEvents).where(eq(auditEvents.action, "workspace.deleted"))).toHaveLength(1);
  });

  it("a member cannot delete or preview (403), and another organisation's workspace is 404", async () => {
    const org = await createTestOrg(t.db);
    const sandbox = await createTestWorkspace(t.db, org.organisationId, "sandbox", { test: true });
    const member = await createTestMember(t.db, org, org.roleIds.admin);
    expect((await callApp(deleteRoute, { as: { userId: member.user.id, organisationId: org.organisationId }, params: { workspaceId: sandbox } })).status).toBe(
      403,
    );
    const other = await createTestOrg(t.db, "Other");
    expect((await callApp(deleteRoute, { as: owner(other), params: { workspaceId: sandbox } })).status).toBe(404);
    expect((await callApp(previewRoute, { as: { userId: member.user.id, organisationId: org.organisationId }, params: { workspaceId: sandbox } })).status).toBe(
      403,
    );
    expect((await callApp(previewRoute, { as: owner(other), params: { workspaceId: sandbox } })).status).toBe(404);
    expect(await t.db.select().from(workspaces).where(eq(workspaces.id, sandbox))).toHaveLength(1);
  });

  it.runIf(onPostgres)("on PostgreSQL, a send under way when the deletion starts finishes first, without a deadlock", async () => {
    const org = await createTestOrg(t.db);
    const sandbox = await createTestWorkspace(t.db, org.organisationId, "sandbox", { test: true });
    const key = (await createTestKey(t.db, org, { workspaceId: sandbox, test: true })).value;
    const tpl = await createActiveTemplate(t.db, { ...org, workspaceId: sandbox });
    const pkg = await packageFromTemplate(key, { templateId: tpl.templateId, title: "Lease" });
    const waitingOnLocks = async () =>
      (
        await queryRows<{ n: number }>(
          t.db,
          sql`select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`,
        )
      )[0]!.n;

    let deletion: Promise<{ status: number }> | undefined;
    // A send's order (performSend): its package row FOR UPDATE, then its workspace FOR SHARE.
    await t.db.transaction(async (tx) => {
      await tx.select({ id: packages.id }).from(packages).where(eq(packages.id, pkg.id)).for("update");
      deletion = callApp(deleteRoute, { as: owner(org), params: { workspaceId: sandbox } });
      for (let i = 0; i < 200 && (await waitingOnLocks()) === 0; i++) await new Promise((r) => setTimeout(r, 10));
      expect(await waitingOnLocks()).toBe(1);
      await tx.select({ id: workspaces.id }).from(workspaces).where(eq(workspaces.id, sandbox)).for("share");
      await tx.update(packages).set({ title: "Sent meanwhile" }).where(eq(packages.id, pkg.id));
    });
    expect((await deletion!).status).toBe(200);
    expect(await rowsOf(sandbox)).toEqual({});
  });

  it.runIf(onPostgres)("on PostgreSQL, sends and deletions at once: each answers as if it ran alone, in some order", async () => {
    const org = await createTestOrg(t.db);
    for (let round = 0; round < 4; round++) {
      const sandbox = await createTestWorkspace(t.db, org.organisationId, `race-${round}`, { test: round % 2 === 0 });
      const key = (await createTestKey(t.db, org, { workspaceId: sandbox, test: round % 2 === 0 })).value;
      const tpl = await createActiveTemplate(t.db, { ...org, workspaceId: sandbox });
      const pkg = await packageFromTemplate(key, { templateId: tpl.templateId, title: "Lease" });
      const [sent, deleted] = await Promise.all([
        callJson(sendRoute, { key, params: { packageId: pkg.id }, body: {} }),
        callApp(deleteRoute, { as: owner(org), params: { workspaceId: sandbox } }),
      ]);
      // A test workspace: the send (200) then the deletion, or the deletion first (the send's key then 401, or,
      // when the key was checked before, its package 404). A live one: the send then the deletion's 409.
      const first = round % 2 === 0 ? [200, 200] : [200, 409];
      expect([first, [401, 200], [404, 200]]).toContainEqual([sent.status, deleted.status]);
      if (deleted.status === 200) expect(await rowsOf(sandbox)).toEqual({});
    }
  });
});
