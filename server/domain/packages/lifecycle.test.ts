/**
 * Protects the package lifecycle through the real route handlers and domain functions: every transition of
 * the spec's table with its exact events in order (read from the outbox), the send conditions and their
 * statuses, visibility, tenancy (404 from another workspace), externalId idempotency, and — on PostgreSQL —
 * real concurrency (one of two sends wins; the allowance is never overspent; one of two from-template calls
 * with one externalId creates).
 */
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { POST as createFromTemplateRoute } from "@/app/api/v1/packages/from-template/route";
import { GET as listRoute, POST as createRoute } from "@/app/api/v1/packages/route";
import { DELETE as deleteRoute, GET as getRoute } from "@/app/api/v1/packages/[packageId]/route";
import { POST as sendRoute } from "@/app/api/v1/packages/[packageId]/send/route";
import { POST as holdRoute } from "@/app/api/v1/packages/[packageId]/hold/route";
import { POST as resumeRoute } from "@/app/api/v1/packages/[packageId]/resume/route";
import { POST as voidRoute } from "@/app/api/v1/packages/[packageId]/void/route";
import { POST as remindRoute } from "@/app/api/v1/packages/[packageId]/remind/route";
import { POST as signingUrlRoute } from "@/app/api/v1/packages/[packageId]/signing-url/route";
import { POST as transferRoute } from "@/app/api/v1/packages/[packageId]/transfer/route";
import { GET as downloadRoute } from "@/app/api/v1/packages/[packageId]/download/route";
import { GET as auditRoute } from "@/app/api/v1/packages/[packageId]/audit-events/route";
import { POST as addRecipientRoute } from "@/app/api/v1/packages/[packageId]/recipients/route";
import { DELETE as removeRecipientRoute } from "@/app/api/v1/packages/[packageId]/recipients/[sessionId]/route";
import { POST as bulkRoute } from "@/app/api/v1/packages/bulk-send/route";
import { organisations, packageFields, recipientSessions, webhookEvents } from "@/server/db/schema";
import { setClock } from "@/server/lib/clock";
import { sha256Hex } from "@/server/lib/crypto";
import { expectOtherWorkspaceGets404 } from "@/server/test/cross-workspace";
import { useTestDb } from "@/server/test/db";
import { createTestKey, createTestOrg, createTestRole } from "@/server/test/factories";
import { callJson } from "@/server/test/http";
import { completeSession } from "@/server/domain/signing/complete-session";
import { declineSession } from "@/server/domain/signing/decline-session";
import { openSession } from "@/server/domain/signing/open-session";
import { sendPackage } from "./send-package";
import { serviceActor } from "./package-actor";
import { createActiveTemplate, eventNames, outbox } from "./test-support/fixtures";

const t = useTestDb();
const onPostgres = Boolean(process.env.DATABASE_URL);

type TPkg = {
  id: string;
  status: string;
  recipientSessions: { id: string; status: string; email: string }[];
  metadata: Record<string, string>;
  expiresAt: string | null;
};
type TBody<T = TPkg> = { data: T; error?: string; details?: Record<string, string[]> };

async function setup(opts: Parameters<typeof createActiveTemplate>[2] = {}) {
  const org = await createTestOrg(t.db);
  const key = await createTestKey(t.db, org);
  const tpl = await createActiveTemplate(t.db, org, opts);
  return { org, key: key.value, ...tpl };
}

const recipients = [
  { email: "tenant@example.com", name: "Tina", roleIndex: 0 },
  { email: "landlord@example.com", roleIndex: 1 },
];

async function fromTemplate(key: string, templateId: string, extra: Record<string, unknown> = {}) {
  return callJson<TBody>(createFromTemplateRoute, { key, body: { templateId, title: "Lease 4B", recipients, ...extra } });
}

async function fillFields(sessionId: string) {
  await t.db.update(packageFields).set({ value: "Signed", valueKind: "typed" }).where(eq(packageFields.sessionId, sessionId));
}

const recipient = (sessionId: string) => ({ kind: "recipient" as const, sessionId, clientAddress: "203.0.113.9", userAgent: "test" });

describe("from template and send", () => {
  it("copies the template and goes DRAFT → IN_PROGRESS → sealing due with every event in order (sequential)", async () => {
    const s = await setup();
    const created = await fromTemplate(s.key, s.templateId, { mergeFields: { customerName: "Tina T." }, metadata: { contract: "C-42" } });
    expect(created.status).toBe(201);
    const pkg = created.body.data;
    expect(pkg.status).toBe("DRAFT");
    expect(pkg.metadata).toEqual({ contract: "C-42" });
    expect(pkg.recipientSessions.map((r) => r.email)).toEqual(["tenant@example.com", "landlord@example.com"]);
    const merged = await t.db.select().from(packageFields).where(eq(packageFields.packageId, pkg.id));
    expect(merged.filter((f) => f.mergeFieldKey === "customerName").map((f) => f.value)).toEqual(["Tina T."]);
    expect(await eventNames(t.db, pkg.id)).toEqual([]);

    const sent = await callJson<TBody>(sendRoute, { key: s.key, params: { packageId: pkg.id }, body: {} });
    expect(sent.status).toBe(200);
    expect(sent.body.data.status).toBe("IN_PROGRESS");
    expect(sent.body.data.recipientSessions.map((r) => r.status)).toEqual(["SENT", "PENDING"]);
    const events = await outbox(t.db, pkg.id);
    expect(events.map((e) => e.event)).toEqual(["PACKAGE_SENT", "SESSION_SENT"]);
    expect(events[0]!.data).toMatchObject({ signerCount: 2, sessionsSent: 1, metadata: { contract: "C-42" } });
    const [org] = await t.db.select().from(organisations).where(eq(organisations.id, s.org.organisationId));
    expect(org!.packagesUsed).toBe(1);

    const [first, second] = sent.body.data.recipientSessions;
    expect(await openSession(t.db, recipient(first!.id))).toEqual({ sessionId: first!.id, opened: true });
    expect(await openSession(t.db, recipient(first!.id))).toEqual({ sessionId: first!.id, opened: false });
    type TCounted = { packages: { id: string; recipientCounts: { total: number; completed: number } }[] };
    const viewed = await callJson<TBody<TCounted>>(listRoute, { key: s.key, query: { status: "VIEWED" } });
    expect(viewed.body.data.packages.map((p) => p.id)).toEqual([pkg.id]);
    expect(viewed.body.data.packages[0]!.recipientCounts).toEqual({ total: 2, completed: 0 });
    await expect(completeSession(t.db, recipient(first!.id))).rejects.toMatchObject({ reason: "FIELDS_MISSING" });
    await expect(completeSession(t.db, recipient(second!.id))).rejects.toMatchObject({ reason: "NOT_YOUR_TURN" });
    await fillFields(first!.id);
    await completeSession(t.db, recipient(first!.id));
    const halfway = await callJson<TBody<TCounted>>(listRoute, { key: s.key });
    expect(halfway.body.data.packages.map((p) => p.recipientCounts)).toEqual([{ total: 2, completed: 1 }]);
    await expect(completeSession(t.db, recipient(first!.id))).rejects.toMatchObject({ reason: "FINISHED" });
    await fillFields(second!.id);
    // The last completion makes sealing due; COMPLETED and PACKAGE_COMPLETED come with the sealed files
    // (server/domain/sealing/sealing-job.test.ts runs the job to the end).
    expect((await completeSession(t.db, recipient(second!.id))).packageStatus).toBe("IN_PROGRESS");
    expect(await eventNames(t.db, pkg.id)).toEqual([
      "PACKAGE_SENT",
      "SESSION_SENT",
      "SESSION_OPENED",
      "SESSION_COMPLETED",
      "SESSION_SENT",
      "SESSION_COMPLETED",
    ]);
    const done = await callJson<TBody<TPkg & { sealing: { state: string } | null }>>(getRoute, { key: s.key, params: { packageId: pkg.id } });
    expect(done.body.data.status).toBe("IN_PROGRESS");
    expect(done.body.data.sealing).toMatchObject({ state: "PENDING" });
    const dl = await callJson(downloadRoute, { key: s.key, params: { packageId: pkg.id } });
    expect(dl.status).toBe(409);
  });

  it("sends every session at once in a parallel package; status sent creates and sends in one call", async () => {
    const s = await setup();
    const res = await fromTemplate(s.key, s.templateId, { sequential: false, status: "sent" });
    expect(res.status).toBe(201);
    expect(res.body.data.recipientSessions.map((r) => r.status)).toEqual(["SENT", "SENT"]);
    const events = await outbox(t.db, res.body.data.id);
    expect(events.map((e) => e.event)).toEqual(["PACKAGE_SENT", "SESSION_SENT", "SESSION_SENT"]);
    expect(events[0]!.data).toMatchObject({ signerCount: 2, sessionsSent: 2 });
  });

  it("answers 422 by dotted path for unknown roleIndex, merge field, metadata and answers; 422 for a non-ACTIVE template", async () => {
    const s = await setup();
    const bad = await callJson<TBody>(createFromTemplateRoute, {
      key: s.key,
      body: {
        templateId: s.templateId,
        title: "x",
        recipients: [...recipients, { email: "c@example.com", roleIndex: 7 }],
        mergeFields: { nope: "1" },
        answers: { q: "1" },
      },
    });
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body.details!).sort()).toEqual(["answers.q", "mergeFields.nope", "recipients.2.roleIndex"]);
    const meta = await fromTemplate(s.key, s.templateId, { metadata: { unknown: "x" } });
    expect(meta.status).toBe(422);
    expect(meta.body.details).toHaveProperty(["metadata.unknown"]);
    const missing = await callJson<TBody>(createFromTemplateRoute, { key: s.key, body: { templateId: s.templateId, title: "x", recipients: [recipients[0]] } });
    expect(missing.status).toBe(422);
    expect(missing.body.details).toHaveProperty("recipients");
    const draft = await createActiveTemplate(t.db, s.org, { status: "DRAFT" });
    const inactive = await fromTemplate(s.key, draft.templateId);
    expect(inactive.status).toBe(422);
    expect(inactive.body.details).toHaveProperty("templateId");
  });

  it("returns the existing package (200) for a visible externalId, 409 for one the key cannot see", async () => {
    const s = await setup();
    const first = await fromTemplate(s.key, s.templateId, { externalId: "crm-1" });
    expect(first.status).toBe(201);
    const again = await fromTemplate(s.key, s.templateId, { externalId: "crm-1" });
    expect(again.status).toBe(200);
    expect(again.body.data.id).toBe(first.body.data.id);
    const narrowRole = await createTestRole(t.db, s.org.organisationId, { canSendPackages: true });
    const otherUser = await createTestKey(
      t.db,
      { ...s.org, userId: (await createMemberUser(s.org.organisationId, narrowRole)).userId },
      { roleId: narrowRole },
    );
    const hidden = await fromTemplate(otherUser.value, s.templateId, { externalId: "crm-1" });
    expect(hidden.status).toBe(409);
    const blank = await callJson<TBody>(createRoute, { key: s.key, body: { title: "B", recipients: [{ email: "a@example.com" }], externalId: "crm-1" } });
    expect(blank.status).toBe(409);
  });

  it("refuses a send in the spec's order: 400 not draft, 409 document, 400 question, 422 expiry, 402 credit, 403 permission", async () => {
    const s = await setup({ questions: [{ key: "term", label: "Contract term", required: true }] });
    const q = await fromTemplate(s.key, s.templateId);
    const send = (key: string, id: string, body: unknown = {}) => callJson<TBody>(sendRoute, { key, params: { packageId: id }, body });
    const unanswered = await send(s.key, q.body.data.id);
    expect(unanswered.status).toBe(400);
    expect(unanswered.body.error).toContain("Contract term");

    const answered = await fromTemplate(s.key, s.templateId, { answers: { term: "12 months" }, expiresAt: "2000-01-01T00:00:00Z" });
    const expired = await send(s.key, answered.body.data.id);
    expect(expired.status).toBe(422);
    expect(expired.body.details).toHaveProperty("expiresAt");

    const uploading = await createActiveTemplate(t.db, s.org, { documentState: "AWAITING_UPLOAD" });
    const u = await fromTemplate(s.key, uploading.templateId);
    expect((await send(s.key, u.body.data.id)).status).toBe(409);
    const blank = await callJson<TBody>(createRoute, { key: s.key, body: { title: "B", recipients: [{ email: "a@example.com" }] } });
    expect(blank.status).toBe(201);
    expect((await send(s.key, blank.body.data.id)).status).toBe(409);

    const ok = await fromTemplate(s.key, s.templateId, { answers: { term: "12 months" } });
    await t.db.update(organisations).set({ packageAllowance: 0 }).where(eq(organisations.id, s.org.organisationId));
    const noCredit = await send(s.key, ok.body.data.id);
    expect(noCredit.status).toBe(402);
    expect(await eventNames(t.db, ok.body.data.id)).toEqual([]);
    await t.db.update(organisations).set({ packageAllowance: null }).where(eq(organisations.id, s.org.organisationId));

    const viewer = await createTestKey(t.db, s.org, { roleId: await createTestRole(t.db, s.org.organisationId, { canViewAllPackages: true }) });
    const forbidden = await send(viewer.value, ok.body.data.id);
    expect(forbidden.status).toBe(403);
    expect(forbidden.body.error).toBe("Missing permission: canSendPackages");

    expect((await send(s.key, ok.body.data.id)).status).toBe(200);
    const twice = await send(s.key, ok.body.data.id);
    expect(twice.status).toBe(400);
    expect(twice.body.error).toBe("Only DRAFT packages can be sent");
  });

  it("schedules with a future sendAt (PACKAGE_SCHEDULED, no credit) and the service sends it later", async () => {
    const s = await setup();
    setClock(() => new Date("2030-01-01T10:00:00Z"));
    const pkg = (await fromTemplate(s.key, s.templateId, { sendAt: "2030-01-02T10:00:00Z" })).body.data;
    expect(pkg.status).toBe("SCHEDULED");
    setClock(() => new Date("2030-01-02T10:00:01Z"));
    const sent = await sendPackage(t.db, serviceActor(s.org.organisationId, s.org.workspaceId), { packageId: pkg.id });
    expect(sent.status).toBe("IN_PROGRESS");
    expect(await eventNames(t.db, pkg.id)).toEqual(["PACKAGE_SCHEDULED", "PACKAGE_SENT", "SESSION_SENT"]);
  });
});

describe("actions on a sent package", () => {
  async function sent(extra: Record<string, unknown> = {}) {
    const s = await setup();
    const pkg = (await fromTemplate(s.key, s.templateId, { status: "sent", sequential: false, ...extra })).body.data;
    return { ...s, pkg };
  }

  it("hold → resume pushes the expiry back by the time on hold; void cancels open sessions after PACKAGE_VOIDED", async () => {
    setClock(() => new Date("2030-01-01T00:00:00Z"));
    const s = await sent({ expiresAt: "2030-02-01T00:00:00Z" });
    const p = { packageId: s.pkg.id };
    expect((await callJson(resumeRoute, { key: s.key, params: p })).status).toBe(409);
    expect((await callJson(holdRoute, { key: s.key, params: p })).status).toBe(200);
    expect((await callJson(holdRoute, { key: s.key, params: p })).status).toBe(409);
    await expect(openSession(t.db, recipient(s.pkg.recipientSessions[0]!.id))).rejects.toMatchObject({ reason: "ON_HOLD" });
    setClock(() => new Date("2030-01-03T00:00:00Z"));
    const resumed = await callJson<TBody>(resumeRoute, { key: s.key, params: p });
    expect(resumed.body.data.expiresAt).toBe("2030-02-03T00:00:00.000Z");
    const v = await callJson<TBody>(voidRoute, { key: s.key, params: p, body: { reason: "wrong" } });
    expect(v.body.data.status).toBe("VOID");
    expect((await callJson(voidRoute, { key: s.key, params: p, body: {} })).status).toBe(409);
    const events = await outbox(t.db, s.pkg.id);
    expect(events.map((e) => e.event)).toEqual([
      "PACKAGE_SENT",
      "SESSION_SENT",
      "SESSION_SENT",
      "PACKAGE_ON_HOLD",
      "PACKAGE_RESUMED",
      "PACKAGE_VOIDED",
      "SESSION_CANCELLED",
      "SESSION_CANCELLED",
    ]);
    expect(events[3]!.data).toMatchObject({ heldBy: expect.stringContaining("@") });
    expect(events[4]!.data).toMatchObject({ expiresAt: "2030-02-03T00:00:00.000Z" });
  });

  it("decline: SESSION_DECLINED, PACKAGE_DECLINED, then SESSION_CANCELLED for the other open session", async () => {
    const s = await sent();
    const [a, b] = s.pkg.recipientSessions;
    await declineSession(t.db, recipient(a!.id), { reason: "No" });
    const events = await outbox(t.db, s.pkg.id);
    expect(events.slice(3).map((e) => [e.event, e.data.sessionId ?? null])).toEqual([
      ["SESSION_DECLINED", a!.id],
      ["PACKAGE_DECLINED", null],
      ["SESSION_CANCELLED", b!.id],
    ]);
  });

  it("void of a draft is 400; delete of a draft emits nothing; delete of a sent one emits PACKAGE_DELETED then cancellations; GET 404 after", async () => {
    const s = await setup();
    const draft = (await fromTemplate(s.key, s.templateId)).body.data;
    expect((await callJson(voidRoute, { key: s.key, params: { packageId: draft.id }, body: {} })).status).toBe(400);
    expect((await callJson(deleteRoute, { key: s.key, params: { packageId: draft.id } })).status).toBe(200);
    expect(await eventNames(t.db, draft.id)).toEqual([]);
    expect((await callJson(getRoute, { key: s.key, params: { packageId: draft.id } })).status).toBe(404);
    const live = (await fromTemplate(s.key, s.templateId, { status: "sent" })).body.data;
    await callJson(deleteRoute, { key: s.key, params: { packageId: live.id } });
    expect(await eventNames(t.db, live.id)).toEqual(["PACKAGE_SENT", "SESSION_SENT", "PACKAGE_DELETED", "SESSION_CANCELLED"]);
  });

  it("remind, signing URL (60 minutes, only the token's hash stored), corrections, transfer outside the organisation", async () => {
    const s = await sent();
    const p = { packageId: s.pkg.id };
    const r = await callJson<TBody<{ reminded: string[] }>>(remindRoute, { key: s.key, params: p, body: {} });
    expect(r.body.data.reminded).toHaveLength(2);
    setClock(() => new Date("2030-05-01T00:00:00Z"));
    const url = await callJson<TBody<{ url: string; expiresAt: string }>>(signingUrlRoute, {
      key: s.key,
      params: p,
      body: { sessionId: s.pkg.recipientSessions[0]!.id },
    });
    expect(url.body.data.expiresAt).toBe("2030-05-01T01:00:00.000Z");
    const token = url.body.data.url.split("/sign/")[1]!;
    const [row] = await t.db.select().from(recipientSessions).where(eq(recipientSessions.id, s.pkg.recipientSessions[0]!.id));
    expect(row!.tokenHash).toBe(sha256Hex(token));
    const added = await callJson<TBody>(addRecipientRoute, { key: s.key, params: p, body: { email: "third@example.com" } });
    expect(added.status).toBe(201);
    const third = added.body.data.recipientSessions.find((x) => x.email === "third@example.com")!;
    expect(third.status).toBe("SENT");
    const removed = await callJson(removeRecipientRoute, { key: s.key, params: { ...p, sessionId: third.id } });
    expect(removed.status).toBe(200);
    const after = await callJson<TBody>(getRoute, { key: s.key, params: p });
    expect(after.body.data.recipientSessions.map((x) => x.id)).not.toContain(third.id);
    expect((await eventNames(t.db, s.pkg.id)).slice(-2)).toEqual(["SESSION_SENT", "SESSION_CANCELLED"]);
    const out = await callJson(transferRoute, { key: s.key, params: p, body: { email: "nobody@example.com" } });
    expect(out.status).toBe(400);
    const audit = await callJson<TBody<{ auditEvents: { action: string; apiKeyId: string | null; clientAddress: string | null }[] }>>(auditRoute, {
      key: s.key,
      params: p,
    });
    expect(audit.body.data.auditEvents[0]).toMatchObject({ action: "package.recipient_removed", clientAddress: "127.0.0.1" });
    expect(audit.body.data.auditEvents[0]!.apiKeyId).toBeTruthy();
  });

  it("bulk send: one bad item does not stop the others, each sent item consumes one credit", async () => {
    const s = await setup();
    await t.db.update(organisations).set({ packageAllowance: 2 }).where(eq(organisations.id, s.org.organisationId));
    const res = await callJson<TBody<{ results: { index: number; status: string }[] }>>(bulkRoute, {
      key: s.key,
      body: { templateId: s.templateId, items: [{ recipients }, { recipients: [recipients[0]] }, { recipients }, { recipients }] },
    });
    expect(res.status).toBe(200);
    expect(res.body.data.results.map((x) => x.status)).toEqual(["sent", "failed", "sent", "failed"]);
  });
});

async function createMemberUser(organisationId: string, roleId: string) {
  const { users, memberships } = await import("@/server/db/schema");
  const { newId } = await import("@/server/lib/ids");
  const userId = newId("usr");
  await t.db.insert(users).values({ id: userId, email: `${userId}@example.com`, name: "Other", passwordHash: null });
  await t.db.insert(memberships).values({ id: newId("mem"), organisationId, userId, roleId, isOwner: false });
  return { userId };
}

describe("visibility and tenancy", () => {
  it("a key without canViewAllPackages sees only its issuer's packages (list, get, actions); another workspace gets 404", async () => {
    const s = await setup();
    const mine = (await fromTemplate(s.key, s.templateId)).body.data;
    const narrowRole = await createTestRole(t.db, s.org.organisationId, { canSendPackages: true });
    const other = await createMemberUser(s.org.organisationId, narrowRole);
    const narrow = await createTestKey(t.db, { ...s.org, userId: other.userId }, { roleId: narrowRole });
    const theirs = (await fromTemplate(narrow.value, s.templateId)).body.data;
    const list = await callJson<TBody<{ packages: { id: string }[]; totalCount: number }>>(listRoute, { key: narrow.value });
    expect(list.body.data.packages.map((p) => p.id)).toEqual([theirs.id]);
    expect((await callJson(getRoute, { key: narrow.value, params: { packageId: mine.id } })).status).toBe(404);
    expect((await callJson(sendRoute, { key: narrow.value, params: { packageId: mine.id }, body: {} })).status).toBe(404);
    const all = await callJson<TBody<{ totalCount: number }>>(listRoute, { key: s.key });
    expect(all.body.data.totalCount).toBe(2);
    for (const route of [getRoute, holdRoute, resumeRoute, deleteRoute, downloadRoute, auditRoute]) {
      await expectOtherWorkspaceGets404(t.db, route, { org: s.org, params: { packageId: mine.id } });
    }
    await expectOtherWorkspaceGets404(t.db, sendRoute, { org: s.org, params: { packageId: mine.id }, body: {} });
  });
});

describe.runIf(onPostgres)("concurrency on PostgreSQL", () => {
  it("two sends of one draft: one succeeds, the other is 400, one credit used", async () => {
    const s = await setup();
    const pkg = (await fromTemplate(s.key, s.templateId)).body.data;
    const results = await Promise.all([0, 1].map(() => callJson(sendRoute, { key: s.key, params: { packageId: pkg.id }, body: {} })));
    expect(results.map((r) => r.status).sort()).toEqual([200, 400]);
    const [org] = await t.db.select().from(organisations).where(eq(organisations.id, s.org.organisationId));
    expect(org!.packagesUsed).toBe(1);
    expect((await eventNames(t.db, pkg.id)).filter((e) => e === "PACKAGE_SENT")).toHaveLength(1);
  });

  it("parallel sends never overspend the allowance", async () => {
    const s = await setup();
    await t.db.update(organisations).set({ packageAllowance: 3 }).where(eq(organisations.id, s.org.organisationId));
    const ids: string[] = [];
    for (let i = 0; i < 6; i++) ids.push((await fromTemplate(s.key, s.templateId)).body.data.id);
    const results = await Promise.all(ids.map((id) => callJson(sendRoute, { key: s.key, params: { packageId: id }, body: {} })));
    expect(results.filter((r) => r.status === 200)).toHaveLength(3);
    expect(results.filter((r) => r.status === 402)).toHaveLength(3);
    const [org] = await t.db.select().from(organisations).where(eq(organisations.id, s.org.organisationId));
    expect(org!.packagesUsed).toBe(3);
    const sentEvents = await t.db.select().from(webhookEvents).where(eq(webhookEvents.event, "PACKAGE_SENT"));
    expect(sentEvents).toHaveLength(3);
  });

  it("two from-template calls with one externalId: one 201, one 200 with the same package", async () => {
    const s = await setup();
    const [a, b] = await Promise.all([0, 1].map(() => fromTemplate(s.key, s.templateId, { externalId: "race-1" })));
    expect([a!.status, b!.status].sort()).toEqual([200, 201]);
    expect(a!.body.data.id).toBe(b!.body.data.id);
  });
});
