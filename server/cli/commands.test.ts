/**
 * The operator's CLI commands against the test database (the functions behind `npm run admin`, not the
 * process): create-owner refuses once an owner exists; create-key prints the value once on stdout and the key
 * works against /api/v1, with its expiry computed in the given zone; set-plan changes exactly the features
 * named and the API sees it; usage mistakes and domain refusals give distinct exit codes and clear messages.
 */
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { GET as getAccount } from "@/app/api/v1/account/route";
import { listApiKeys } from "@/server/domain/keys/list-api-keys";
import { readPlan } from "@/server/domain/organisation/get-plan";
import { setClock } from "@/server/lib/clock";
import { ownerActor } from "@/server/test/actors";
import { useTestDb } from "@/server/test/db";
import { createTestKey, createTestOrg, createTestRole, createTestWorkspace } from "@/server/test/factories";
import { callJson, callRoute } from "@/server/test/http";
import { auditEvents, workspaces } from "@/server/db/schema";
import { DEFAULT_WORKSPACE_KEPT } from "@/server/domain/organisation/delete-workspace";
import { runAdmin } from "./run-admin";

const t = useTestDb();

async function admin(...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runAdmin(argv, async () => t.db, { out: (l) => out.push(l), err: (l) => err.push(l) });
  return { code, out, err: err.join("\n") };
}

describe("npm run admin", () => {
  it("help prints every command; no command or an unknown one is a usage error", async () => {
    const help = await admin("help");
    expect(help.code).toBe(0);
    for (const c of ["create-owner", "create-key", "set-plan"]) expect(help.out.join("\n")).toContain(c);
    expect((await admin()).code).toBe(2);
    expect((await admin("frobnicate")).code).toBe(2);
  });

  it("create-owner creates the first owner and refuses a second one", async () => {
    const first = await admin("create-owner", "--email", "Olga@Example.test", "--password", "a good password", "--org", "Acme");
    expect(first.code).toBe(0);
    expect(first.err).toContain("owner olga@example.test");
    const again = await admin("create-owner", "--email", "eve@example.test", "--password", "a good password", "--org", "Evil");
    expect(again.code).toBe(1);
    expect(again.err).toBe("Refused: An owner already exists; setup is closed");
    const missing = await admin("create-owner", "--email", "x@example.test", "--org", "X");
    expect([missing.code, missing.err]).toEqual([2, "--password is required. Run `npm run admin -- help`."]);
    const weak = await admin("create-owner", "--email", "x@example.test", "--password", "short", "--org", "X");
    expect([weak.code, weak.err]).toEqual([1, "Refused: Validation failed\n  password: Use at least 10 characters"]);
  });

  it("delete-workspace deletes a test workspace by the app's rules; --check deletes nothing; refusals exit 1", async () => {
    const org = await createTestOrg(t.db);
    const sandbox = await createTestWorkspace(t.db, org.organisationId, "sandbox", { test: true });
    await createTestKey(t.db, org, { workspaceId: sandbox, test: true });
    const email = (await listOwnerEmail(org))!;
    const check = await admin("delete-workspace", "--owner", email, "--workspace", "sandbox", "--check");
    expect([check.code, check.out, check.err]).toEqual([
      0,
      [],
      'Would delete workspace "sandbox" (test) with packages 0, templates 0, API keys 1, webhook endpoints 0. Nothing deleted (--check).',
    ]);
    expect(await t.db.select().from(workspaces).where(eq(workspaces.id, sandbox))).toHaveLength(1);

    const done = await admin("delete-workspace", "--owner", email, "--workspace", "sandbox");
    expect([done.code, done.out]).toEqual([0, [sandbox]]);
    expect(done.err).toBe('Deleted workspace "sandbox" with packages 0, templates 0, API keys 1, webhook endpoints 0. The audit trail keeps the record.');
    expect(await t.db.select().from(workspaces).where(eq(workspaces.id, sandbox))).toEqual([]);
    const [event] = await t.db.select().from(auditEvents).where(eq(auditEvents.action, "workspace.deleted"));
    expect(event).toMatchObject({ subjectId: sandbox, actorUserId: org.userId });

    const home = await admin("delete-workspace", "--owner", email, "--workspace", "default");
    expect([home.code, home.err]).toEqual([1, `Refused: ${DEFAULT_WORKSPACE_KEPT}`]);
    expect((await admin("delete-workspace", "--owner", email)).code).toBe(2);
    expect((await admin("delete-workspace", "--owner", email, "--workspace", "nowhere")).code).toBe(2);
  });

  it("create-key prints the value once on stdout, and it works in the chosen workspace and role", async () => {
    const org = await createTestOrg(t.db);
    const ws = await createTestWorkspace(t.db, org.organisationId, "emea");
    await createTestRole(t.db, org.organisationId, { apiAccess: true }, "Integrations");
    const owner = (await listOwnerEmail(org)) as string;
    const res = await admin("create-key", "--owner", owner.toUpperCase(), "--name", "CI", "--role", "integrations", "--workspace", "emea");
    expect(res.code).toBe(0);
    expect(res.out).toHaveLength(1);
    expect(res.out[0]).toMatch(/^fsk_/);
    expect(res.err).toContain("shown once");
    expect(res.err).not.toContain(res.out[0]);
    const account = await callJson<{ data: { workspace: { id: string }; role: { name: string } } }>(getAccount, { key: res.out[0] });
    expect(account.body.data.workspace.id).toBe(ws);
    expect(account.body.data.role.name).toBe("Integrations");
    const [listed] = await listApiKeys(t.db, ownerActor(org));
    expect(listed).toMatchObject({ name: "CI", issuedBy: { id: org.userId } });
  });

  it("create-key --expires --tz ends the key at the end of that day in that zone", async () => {
    const org = await createTestOrg(t.db);
    setClock(() => new Date("2026-10-01T00:00:00Z"));
    const res = await admin(
      "create-key",
      "--owner",
      (await listOwnerEmail(org))!,
      "--name",
      "temp",
      "--role",
      "Admin",
      "--expires",
      "2026-11-01",
      "--tz",
      "America/New_York",
    );
    expect(res.code).toBe(0);
    expect(res.err).toContain("expires 2026-11-02T05:00:00.000Z");
    setClock(() => new Date("2026-11-02T04:59:59.999Z"));
    expect((await callRoute(getAccount, { key: res.out[0] })).status).toBe(200);
    setClock(() => new Date("2026-11-02T05:00:00.000Z"));
    expect((await callRoute(getAccount, { key: res.out[0] })).status).toBe(401);
  });

  it("create-key refuses clearly: unknown owner, role without API access, unknown workspace, bad zone", async () => {
    const org = await createTestOrg(t.db);
    const owner = (await listOwnerEmail(org))!;
    const base = ["create-key", "--owner", owner, "--name", "k"];
    expect((await admin("create-key", "--owner", "nobody@example.test", "--name", "k", "--role", "Admin")).err).toContain("No owner");
    const sender = await admin(...base, "--role", "Sender");
    expect([sender.code, sender.err]).toEqual([1, "Refused: Validation failed\n  roleId: This role has no API access"]);
    expect((await admin(...base, "--role", "Admin", "--workspace", "nowhere")).code).toBe(2);
    const zone = await admin(...base, "--role", "Admin", "--expires", "2099-01-01", "--tz", "Mars/Base");
    expect(zone.code).toBe(1);
    expect(zone.err).toContain("timeZone: Unknown time zone");
    expect((await admin(...base, "--role", "Admin", "--bogus")).code).toBe(2);
    expect(await listApiKeys(t.db, ownerActor(org))).toEqual([]);
  });

  it("set-plan changes only the features named, and the API follows", async () => {
    const org = await createTestOrg(t.db);
    const res = await admin("set-plan", "--public-api", "off", "--allowance", "250");
    expect(res.code).toBe(0);
    expect(res.out).toEqual([
      "public API:    off",
      "webhooks:      on",
      "custom fields: on",
      "allowance:     250 (used 0)",
      "templates:     unlimited",
      "recipients:    unlimited per package",
    ]);
    expect(await readPlan(t.db, org.organisationId)).toMatchObject({
      features: { publicApi: false, webhooks: true, customFields: true },
      packageAllowance: 250,
    });
    await admin("set-plan", "--public-api", "on", "--webhooks", "off", "--custom-fields", "off", "--allowance", "unlimited");
    expect(await readPlan(t.db, org.organisationId)).toMatchObject({
      features: { publicApi: true, webhooks: false, customFields: false },
      packageAllowance: null,
    });
    expect((await admin("set-plan", "--webhooks", "maybe")).code).toBe(2);
    expect((await admin("set-plan", "--allowance", "-3")).code).toBe(2);
    expect((await admin("set-plan")).out[0]).toBe("public API:    on");
  });

  it("set-plan sets and lifts the template and recipient limits", async () => {
    const org = await createTestOrg(t.db);
    const res = await admin("set-plan", "--max-templates", "3", "--max-recipients", "10");
    expect(res.code).toBe(0);
    expect(res.out.slice(4)).toEqual(["templates:     3", "recipients:    10 per package"]);
    expect(await readPlan(t.db, org.organisationId)).toMatchObject({ maxTemplates: 3, maxRecipientsPerPackage: 10 });
    await admin("set-plan", "--max-templates", "unlimited", "--max-recipients", "unlimited");
    expect(await readPlan(t.db, org.organisationId)).toMatchObject({ maxTemplates: null, maxRecipientsPerPackage: null });
    expect((await admin("set-plan", "--max-templates", "many")).code).toBe(2);
    expect((await admin("set-plan", "--max-recipients", "0")).code).toBe(2);
    expect((await admin("help")).out.join("\n")).toContain("--max-templates N|unlimited");
  });

  it("set-plan asks which organisation when there are several", async () => {
    const a = await createTestOrg(t.db, "Alpha");
    await createTestOrg(t.db, "Beta");
    const ambiguous = await admin("set-plan", "--webhooks", "off");
    expect(ambiguous.code).toBe(2);
    expect(ambiguous.err).toContain("--org");
    expect((await admin("set-plan", "--webhooks", "off", "--org", a.organisationId)).code).toBe(0);
    expect((await readPlan(t.db, a.organisationId)).features.webhooks).toBe(false);
  });
});

async function listOwnerEmail(org: Awaited<ReturnType<typeof createTestOrg>>): Promise<string | undefined> {
  const { users } = await import("@/server/db/schema");
  const { eq } = await import("drizzle-orm");
  const [row] = await t.db.select({ email: users.email }).from(users).where(eq(users.id, org.userId));
  return row?.email;
}
