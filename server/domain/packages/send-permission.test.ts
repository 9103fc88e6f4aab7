/**
 * Regression (issue 24, item 10): a key whose role could not send packages could still void, delete, hold,
 * resume and transfer sent packages and mint signing URLs. Decision (docs/decisions/actions-on-sent-packages.md):
 * every action on a package that has left DRAFT needs canSendPackages, like sending — void, hold, resume,
 * remind and signing URLs always (declared on the operation), PATCH, delete, transfer and corrections beyond a
 * DRAFT (checked in the domain). This file protects it on both doors, through the real route handlers: for
 * every named action, a role without canSendPackages gets `403 Missing permission: canSendPackages` and nothing
 * changes (package row, recipients, audit events, webhook events, mail), and a role holding it (and nothing
 * else beyond seeing every package) succeeds. A DRAFT stays its preparer's: the same role edits, corrects,
 * transfers and deletes one.
 */
import { asc, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { POST as createFromTemplateRoute } from "@/app/api/v1/packages/from-template/route";
import { DELETE as deleteRoute, PATCH as patchRoute } from "@/app/api/v1/packages/[packageId]/route";
import { POST as holdRoute } from "@/app/api/v1/packages/[packageId]/hold/route";
import { POST as resumeRoute } from "@/app/api/v1/packages/[packageId]/resume/route";
import { POST as voidRoute } from "@/app/api/v1/packages/[packageId]/void/route";
import { POST as remindRoute } from "@/app/api/v1/packages/[packageId]/remind/route";
import { POST as signingUrlRoute } from "@/app/api/v1/packages/[packageId]/signing-url/route";
import { POST as transferRoute } from "@/app/api/v1/packages/[packageId]/transfer/route";
import { POST as addRecipientRoute } from "@/app/api/v1/packages/[packageId]/recipients/route";
import { DELETE as removeRecipientRoute, PATCH as updateRecipientRoute } from "@/app/api/v1/packages/[packageId]/recipients/[sessionId]/route";
import { DELETE as appDeleteRoute, PATCH as appPatchRoute } from "@/app/api/app/packages/[packageId]/route";
import { POST as appHoldRoute } from "@/app/api/app/packages/[packageId]/hold/route";
import { POST as appResumeRoute } from "@/app/api/app/packages/[packageId]/resume/route";
import { POST as appVoidRoute } from "@/app/api/app/packages/[packageId]/void/route";
import { POST as appRemindRoute } from "@/app/api/app/packages/[packageId]/remind/route";
import { POST as appSigningUrlRoute } from "@/app/api/app/packages/[packageId]/signing-url/route";
import { POST as appTransferRoute } from "@/app/api/app/packages/[packageId]/transfer/route";
import { auditEvents, mailMessages, packages, recipientSessions } from "@/server/db/schema";
import type { TRouteHandler } from "@/server/http/route";
import { createTestMember } from "@/server/test/actors";
import { callApp } from "@/server/test/app-http";
import { useTestDb } from "@/server/test/db";
import { createTestKey, createTestOrg, createTestRole } from "@/server/test/factories";
import { callJson } from "@/server/test/http";
import { createActiveTemplate, eventNames } from "./test-support/fixtures";

const t = useTestDb();

type TState = "DRAFT" | "SCHEDULED" | "IN_PROGRESS" | "ON_HOLD" | "VOID";
type TPkg = { id: string; status: string; recipientSessions: { id: string; status: string }[] };
type TWho = { userId: string; organisationId: string };
type TWorld = Awaited<ReturnType<typeof setup>>;

/** One action: its routes on both doors (the app has no corrections routes), its input and its success status. */
type TCase = {
  name: string;
  state: TState;
  api: TRouteHandler;
  app?: TRouteHandler;
  params?: (pkg: TPkg) => Record<string, string>;
  body?: (pkg: TPkg, w: TWorld) => unknown;
  ok: number;
};

const second = (pkg: TPkg) => ({ packageId: pkg.id, sessionId: pkg.recipientSessions[1]!.id });

const SENT_CASES: TCase[] = [
  { name: "void", state: "IN_PROGRESS", api: voidRoute, app: appVoidRoute, body: () => ({ reason: "Wrong terms" }), ok: 200 },
  { name: "hold", state: "IN_PROGRESS", api: holdRoute, app: appHoldRoute, ok: 200 },
  { name: "resume", state: "ON_HOLD", api: resumeRoute, app: appResumeRoute, ok: 200 },
  { name: "remind", state: "IN_PROGRESS", api: remindRoute, app: appRemindRoute, body: () => ({}), ok: 200 },
  {
    name: "signing URL",
    state: "IN_PROGRESS",
    api: signingUrlRoute,
    app: appSigningUrlRoute,
    body: (pkg) => ({ sessionId: pkg.recipientSessions[0]!.id }),
    ok: 200,
  },
  {
    name: "transfer (in progress)",
    state: "IN_PROGRESS",
    api: transferRoute,
    app: appTransferRoute,
    body: (_, w) => ({ userId: w.colleague.userId }),
    ok: 200,
  },
  { name: "transfer (scheduled)", state: "SCHEDULED", api: transferRoute, app: appTransferRoute, body: (_, w) => ({ userId: w.colleague.userId }), ok: 200 },
  { name: "delete (in progress)", state: "IN_PROGRESS", api: deleteRoute, app: appDeleteRoute, ok: 200 },
  { name: "delete (on hold)", state: "ON_HOLD", api: deleteRoute, app: appDeleteRoute, ok: 200 },
  { name: "delete (scheduled)", state: "SCHEDULED", api: deleteRoute, app: appDeleteRoute, ok: 200 },
  { name: "delete (voided)", state: "VOID", api: deleteRoute, app: appDeleteRoute, ok: 200 },
  { name: "PATCH (scheduled)", state: "SCHEDULED", api: patchRoute, app: appPatchRoute, body: () => ({ sendAt: "2099-06-01T09:00:00.000Z" }), ok: 200 },
  { name: "correction: add a recipient", state: "IN_PROGRESS", api: addRecipientRoute, body: () => ({ email: "late@example.com" }), ok: 201 },
  { name: "correction: add a recipient (scheduled)", state: "SCHEDULED", api: addRecipientRoute, body: () => ({ email: "late@example.com" }), ok: 201 },
  {
    name: "correction: change a recipient",
    state: "IN_PROGRESS",
    api: updateRecipientRoute,
    params: second,
    body: () => ({ email: "new-landlord@example.com" }),
    ok: 200,
  },
  { name: "correction: remove a recipient", state: "IN_PROGRESS", api: removeRecipientRoute, params: second, ok: 200 },
];

const DRAFT_CASES: TCase[] = [
  { name: "PATCH", state: "DRAFT", api: patchRoute, app: appPatchRoute, body: () => ({ title: "Lease 4C" }), ok: 200 },
  { name: "transfer", state: "DRAFT", api: transferRoute, app: appTransferRoute, body: (_, w) => ({ userId: w.colleague.userId }), ok: 200 },
  { name: "delete", state: "DRAFT", api: deleteRoute, app: appDeleteRoute, ok: 200 },
  { name: "correction: add a recipient", state: "DRAFT", api: addRecipientRoute, body: () => ({ email: "late@example.com" }), ok: 201 },
  { name: "correction: change a recipient", state: "DRAFT", api: updateRecipientRoute, params: second, body: () => ({ name: "Lou" }), ok: 200 },
  { name: "correction: remove a recipient", state: "DRAFT", api: removeRecipientRoute, params: second, ok: 200 },
];

const recipients = [
  { email: "tenant@example.com", name: "Tina", roleIndex: 0 },
  { email: "landlord@example.com", roleIndex: 1 },
];

/** Keys and members of one organisation: with and without canSendPackages, both seeing every package. */
async function setup() {
  const org = await createTestOrg(t.db);
  const { templateId } = await createActiveTemplate(t.db, org);
  const admin = (await createTestKey(t.db, org)).value;
  const noSendRole = await createTestRole(t.db, org.organisationId, { apiAccess: true, canViewAllPackages: true, canSendPackages: false });
  const sendRole = await createTestRole(t.db, org.organisationId, { apiAccess: true, canViewAllPackages: true, canSendPackages: true });
  const who = async (roleId: string): Promise<TWho> => ({ userId: (await createTestMember(t.db, org, roleId)).user.id, organisationId: org.organisationId });
  return {
    org,
    templateId,
    admin,
    keys: { noSend: (await createTestKey(t.db, org, { roleId: noSendRole })).value, send: (await createTestKey(t.db, org, { roleId: sendRole })).value },
    members: { noSend: await who(noSendRole), send: await who(sendRole) },
    colleague: await who(org.roleIds.viewer),
  };
}

/** A package in `state`, made with the admin key (two recipients, signing in order). */
async function packageIn(w: TWorld, state: TState): Promise<TPkg> {
  const extra = state === "DRAFT" ? {} : state === "SCHEDULED" ? { sendAt: "2099-01-01T09:00:00.000Z" } : { status: "sent" };
  const created = await callJson<{ data: TPkg }>(createFromTemplateRoute, {
    key: w.admin,
    body: { templateId: w.templateId, title: "Lease 4B", recipients, ...extra },
  });
  expect(created.status).toBe(201);
  const pkg = created.body.data;
  const act = async (route: TRouteHandler, body?: unknown) =>
    expect((await callJson(route, { key: w.admin, params: { packageId: pkg.id }, body })).status).toBe(200);
  if (state === "ON_HOLD") await act(holdRoute);
  if (state === "VOID") await act(voidRoute, {});
  expect(pkg.status).toBe(state === "ON_HOLD" || state === "VOID" ? "IN_PROGRESS" : state);
  return pkg;
}

/** Everything an action could change: the package row, its recipients, audit events, webhook events, mail. */
async function snapshot(packageId: string) {
  const [pkg] = await t.db.select().from(packages).where(eq(packages.id, packageId));
  const sessions = await t.db.select().from(recipientSessions).where(eq(recipientSessions.packageId, packageId)).orderBy(asc(recipientSessions.position));
  const audit = await t.db.select({ id: auditEvents.id }).from(auditEvents).where(eq(auditEvents.subjectId, packageId));
  const mail = await t.db.select({ id: mailMessages.id }).from(mailMessages).where(eq(mailMessages.packageId, packageId));
  return { pkg, sessions, audit: audit.map((a) => a.id).sort(), events: await eventNames(t.db, packageId), mail: mail.map((m) => m.id).sort() };
}

type TDoor = "api" | "app";

async function call(w: TWorld, c: TCase, door: TDoor, allowed: boolean, pkg: TPkg) {
  const params = c.params?.(pkg) ?? { packageId: pkg.id };
  const body = c.body?.(pkg, w);
  if (door === "api") return callJson<{ error?: string }>(c.api, { key: allowed ? w.keys.send : w.keys.noSend, params, body });
  return callApp<{ error?: string }>(c.app!, { as: allowed ? w.members.send : w.members.noSend, params, body });
}

for (const door of ["api", "app"] as const) {
  const label = door === "api" ? "/api/v1 (API key)" : "/api/app (signed-in member)";

  describe(`${label}: actions on a scheduled or sent package need canSendPackages`, () => {
    for (const c of SENT_CASES.filter((x) => door === "api" || x.app)) {
      it(`${c.name}: 403 and nothing changes without it; ${c.ok} with it`, async () => {
        const w = await setup();
        const pkg = await packageIn(w, c.state);
        const before = await snapshot(pkg.id);

        const refused = await call(w, c, door, false, pkg);
        expect(refused.status).toBe(403);
        expect(refused.body).toEqual({ error: "Missing permission: canSendPackages" });
        expect(await snapshot(pkg.id)).toEqual(before);

        const done = await call(w, c, door, true, pkg);
        expect(done.status).toBe(c.ok);
        expect((await snapshot(pkg.id)).audit.length).toBe(before.audit.length + 1);
      });
    }
  });

  describe(`${label}: a DRAFT is its preparer's`, () => {
    for (const c of DRAFT_CASES.filter((x) => door === "api" || x.app)) {
      it(`${c.name} of a draft needs no canSendPackages (${c.ok})`, async () => {
        const w = await setup();
        const pkg = await packageIn(w, "DRAFT");
        const before = await snapshot(pkg.id);
        const done = await call(w, c, door, false, pkg);
        expect(done.status).toBe(c.ok);
        expect((await snapshot(pkg.id)).audit.length).toBe(before.audit.length + 1);
      });
    }
  });
}

describe("order of the checks", () => {
  it("a package the key cannot see is 404 before the state-dependent 403; an operation's gate answers 403 first", async () => {
    const w = await setup();
    const pkg = await packageIn(w, "IN_PROGRESS");
    // A key without canViewAllPackages issued by another member: the owner's package is not theirs to see.
    const restricted = await createTestRole(t.db, w.org.organisationId, { apiAccess: true });
    const stranger = await createTestKey(t.db, { ...w.org, userId: w.colleague.userId }, { roleId: restricted });
    const del = await callJson(deleteRoute, { key: stranger.value, params: { packageId: pkg.id } });
    expect(del.status).toBe(404);
    expect(del.body).toEqual({ error: "Package not found" });
    const voided = await callJson(voidRoute, { key: stranger.value, params: { packageId: pkg.id }, body: {} });
    expect(voided.status).toBe(403);
    expect(voided.body).toEqual({ error: "Missing permission: canSendPackages" });
  });
});
