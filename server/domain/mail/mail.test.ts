/**
 * Mail end to end on a real database and a real SMTP server on 127.0.0.1 (test-support/smtp-sink.ts):
 * - queuePackageMail writes in the caller's transaction (a rollback takes the mail with it); the job sends
 *   invitations, reminders and the completed copies through SMTP, with the signing link in both parts, and
 *   then removes the token from the stored copy;
 * - a server that refuses once (451 at RCPT) → retried after the backoff (injected clock) → SENT; a server that
 *   keeps refusing → FAILED after 8 attempts with its reply; a permanent 550 → FAILED at once;
 * - the outbox transport keeps messages (KEPT) with their links, and the app's operations list them; a message
 *   of another workspace is 404; the gates (canSendPackages, owner-only test mail);
 * - two runners (two pools on PostgreSQL) never send one message twice.
 */
import { eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { setSessionLookup } from "@/server/auth/app-route";
import { WORKSPACE_COOKIE } from "@/server/auth/workspace-cookie";
import { openPostgres, type Db, type DbHandle } from "@/server/db/client";
import { mailMessages, packages, recipientSessions } from "@/server/db/schema";
import { env } from "@/server/env";
import { setClock } from "@/server/lib/clock";
import { newId } from "@/server/lib/ids";
import { runDueItem } from "@/server/lib/jobs";
import { createTestMember } from "@/server/test/actors";
import { useTestDb } from "@/server/test/db";
import { createTestOrg, createTestWorkspace, type TTestOrg } from "@/server/test/factories";
import { runDeclaredJob } from "@/server/jobs/run-declared-job";
import { GET as listRoute } from "@/app/api/app/mail/route";
import { GET as getRoute } from "@/app/api/app/mail/[messageId]/route";
import { POST as testRoute } from "@/app/api/app/mail/test/route";
import { MAX_MAIL_ATTEMPTS, mailJobs } from "./jobs";
import { listMailForPackage } from "./list-mail-for-package";
import { queuePackageMail, type TMailPackage } from "./queue-package-mail";
import { REDACTED_TOKEN } from "./redact-signing-links";
import { startSmtpSink, type TSmtpSink } from "./test-support/smtp-sink";
import { createMailTransport, type TMailTransport } from "./transport";
import { ownerActor } from "@/server/test/actors";

const t = useTestDb();
const T0 = new Date("2030-05-01T09:00:00.000Z");
const MINUTE = 60_000;
let clock = T0;
let sink: TSmtpSink;
let smtp: TMailTransport;
const outbox = createMailTransport({ from: "Foliosign <no-reply@localhost>" });

beforeAll(async () => {
  sink = await startSmtpSink();
  smtp = createMailTransport({ smtpUrl: sink.url, from: "Foliosign <no-reply@foliosign.test>" });
});
afterAll(() => sink.close());
afterEach(() => {
  sink.received.length = 0;
  sink.refuseRcpt = () => null;
  clock = T0;
  setSessionLookup(undefined);
});

const smtpJob = mailJobs({ transport: () => smtp }).sendMail;
const outboxJob = mailJobs({ transport: () => outbox }).sendMail;

/** Runs the job until nothing is due at `at`, as the worker would; returns how many messages were handled. */
async function drain(job = smtpJob, at = clock, db: Db = t.db): Promise<number> {
  setClock(() => at);
  let n = 0;
  while (await runDueItem(db, job, { at, skip: [] })) n++;
  return n;
}

async function makePackage(org: TTestOrg, workspaceId = org.workspaceId) {
  const id = newId("pkg");
  await t.db.insert(packages).values({
    id,
    organisationId: org.organisationId,
    workspaceId,
    title: "Lease <2030> & annex",
    ownerUserId: org.userId,
    message: "Please sign by Friday.\nThanks!",
  });
  const sessions = [
    { id: newId("ses"), packageId: id, position: 0, email: "ada@example.test", name: "Ada Lovelace" },
    { id: newId("ses"), packageId: id, position: 1, email: "zoe@example.test", name: "Zoë Ørsted" },
  ];
  await t.db.insert(recipientSessions).values(sessions);
  const pkg: TMailPackage = {
    id,
    organisationId: org.organisationId,
    workspaceId,
    title: "Lease <2030> & annex",
    message: "Please sign by Friday.\nThanks!",
    expiresAt: new Date("2030-06-01T12:00:00Z"),
    owner: { userId: org.userId, email: "owner@acme.test", name: "Olivia Owner" },
  };
  return { pkg, sessions: sessions.map((s) => ({ sessionId: s.id, email: s.email, name: s.name })) };
}

const rows = (db: Db = t.db) => db.select().from(mailMessages).orderBy(mailMessages.createdAt, mailMessages.id);

describe("sending through SMTP", () => {
  it("queues in the caller's transaction: a rolled-back state change takes its mail with it", async () => {
    const org = await createTestOrg(t.db);
    const { pkg, sessions } = await makePackage(org);
    await t.db
      .transaction(async (tx) => {
        await queuePackageMail(tx, { kind: "INVITATION", pkg, recipient: sessions[0]!, token: "tok_rolled_back" });
        throw new Error("the state change failed");
      })
      .catch(() => undefined);
    expect(await rows()).toEqual([]);
    expect(await drain()).toBe(0);
  });

  it("sends an invitation, a reminder and the completed copies; the link works in both parts, then leaves the stored copy", async () => {
    setClock(() => T0);
    const org = await createTestOrg(t.db);
    const { pkg, sessions } = await makePackage(org);
    const base = env().publicUrl;
    await t.db.transaction((tx) => queuePackageMail(tx, { kind: "INVITATION", pkg, recipient: sessions[0]!, token: "tokInviteAda_123" }));
    expect((await rows())[0]).toMatchObject({ status: "QUEUED", attempts: 0, kind: "INVITATION", toEmail: "ada@example.test" });
    expect(sink.received).toEqual([]); // nothing is sent inside the caller's transaction

    expect(await drain()).toBe(1);
    const [invite] = sink.received;
    expect(invite!.to).toEqual(["ada@example.test"]);
    expect(invite!.from).toBe("no-reply@foliosign.test");
    expect(invite!.subject).toBe("Olivia Owner invites you to sign “Lease <2030> & annex”");
    expect(invite!.text).toContain(`Review and sign: ${base}/sign/tokInviteAda_123`);
    expect(invite!.text).toContain("> Please sign by Friday.\n> Thanks!");
    expect(invite!.html).toContain(`<a href="${base}/sign/tokInviteAda_123"`);
    expect(invite!.html).toContain("Lease &lt;2030&gt; &amp; annex"); // escaped, never raw markup
    expect(invite!.html).not.toMatch(/<img|<script|src=/i);
    const [sent] = await rows();
    expect(sent).toMatchObject({ status: "SENT", attempts: 1, transport: "smtp", sentAt: T0, nextAttemptAt: null, lastError: null });
    expect(sent!.serverResponse).toMatch(/^250/);
    expect(sent!.html).not.toContain("tokInviteAda_123");
    expect(sent!.html).toContain(`/sign/${REDACTED_TOKEN}`);

    await t.db.transaction((tx) => queuePackageMail(tx, { kind: "REMINDER", pkg, recipient: sessions[1]!, token: "tokRemindZoe" }));
    await t.db.transaction((tx) =>
      queuePackageMail(tx, {
        kind: "COMPLETED",
        pkg,
        recipients: [
          { ...sessions[0]!, downloadUrl: `${base}/sign/tokDoneAda/download` },
          { ...sessions[1]!, downloadUrl: null },
          { sessionId: "ses_unknown", email: null, name: null, downloadUrl: null }, // no address yet: skipped
        ],
      }),
    );
    expect(await drain()).toBe(4);
    // Sent concurrently: found by recipient and kind, not by arrival order.
    const later = sink.received.slice(1);
    const find = (to: string, subject: RegExp) => later.find((m) => m.to.includes(to) && subject.test(m.subject));
    const reminder = find("zoe@example.test", /^Reminder/);
    const doneAda = find("ada@example.test", /^Completed/);
    const doneZoe = find("zoe@example.test", /^Completed/);
    const doneOwner = find("owner@acme.test", /^Completed/);
    expect(later).toHaveLength(4);
    expect(reminder).toMatchObject({ to: ["zoe@example.test"], subject: "Reminder: “Lease <2030> & annex” is waiting for your signature" });
    expect(reminder!.text).toContain(`${base}/sign/tokRemindZoe`);
    expect(reminder!.raw).toMatch(/^To: .*zoe@example\.test/m);
    expect(doneAda).toMatchObject({ to: ["ada@example.test"], subject: "Completed: “Lease <2030> & annex”" });
    expect(doneAda!.text).toContain(`Download the signed copy: ${base}/sign/tokDoneAda/download`);
    expect(doneZoe!.text).toContain("Your signed copy will reach you separately");
    expect(doneOwner).toMatchObject({ to: ["owner@acme.test"] });
    expect(doneOwner!.text).toContain(`Open the package: ${base}/packages/${pkg.id}`);

    // The package page's panel: every message about the package, oldest first, with its status.
    const panel = await listMailForPackage(t.db, ownerActor(org), { packageId: pkg.id });
    // Oldest first; the three completed copies were queued in one statement at one instant, so their order
    // among themselves is not defined.
    const rowsOf = panel.map((m) => [m.kind, m.to.email, m.status]);
    expect(rowsOf.slice(0, 2)).toEqual([
      ["INVITATION", "ada@example.test", "SENT"],
      ["REMINDER", "zoe@example.test", "SENT"],
    ]);
    expect(
      rowsOf
        .slice(2)
        .map((r) => r.join(" "))
        .sort(),
    ).toEqual(["COMPLETED ada@example.test SENT", "COMPLETED owner@acme.test SENT", "COMPLETED zoe@example.test SENT"]);
    const sibling = await createTestWorkspace(t.db, org.organisationId, "emea");
    await expect(listMailForPackage(t.db, ownerActor(org, { id: sibling }), { packageId: pkg.id })).rejects.toMatchObject({ status: 404 });
  });

  it("a server that refuses once (451) → the attempt is recorded, retried after a minute, then SENT", async () => {
    const org = await createTestOrg(t.db);
    const { pkg, sessions } = await makePackage(org);
    let refusals = 1;
    sink.refuseRcpt = () => (refusals-- > 0 ? 451 : null);
    setClock(() => T0);
    await t.db.transaction((tx) => queuePackageMail(tx, { kind: "INVITATION", pkg, recipient: sessions[0]!, token: "tokRetry" }));

    expect(await drain(smtpJob, T0)).toBe(1);
    const [first] = await rows();
    expect(first).toMatchObject({ status: "QUEUED", attempts: 1, nextAttemptAt: new Date(T0.getTime() + MINUTE) });
    expect(first!.lastError).toMatch(/451/);
    expect(sink.received).toEqual([]);

    expect(await drain(smtpJob, new Date(T0.getTime() + MINUTE - 1))).toBe(0); // not due yet
    expect(await drain(smtpJob, new Date(T0.getTime() + MINUTE))).toBe(1);
    expect((await rows())[0]).toMatchObject({ status: "SENT", attempts: 2, lastError: null });
    expect(sink.received.map((m) => m.to)).toEqual([["ada@example.test"]]);
    expect(sink.received[0]!.text).toContain("/sign/tokRetry");
  });

  it("a server that keeps refusing → FAILED after 8 attempts with its reply, the backoff doubling; 550 fails at once", async () => {
    const org = await createTestOrg(t.db);
    const { pkg, sessions } = await makePackage(org);
    sink.refuseRcpt = (address) => (address === "ada@example.test" ? 452 : 550);
    setClock(() => T0);
    await t.db.transaction((tx) => queuePackageMail(tx, { kind: "INVITATION", pkg, recipient: sessions[0]!, token: "tokA" }));
    await t.db.transaction((tx) => queuePackageMail(tx, { kind: "INVITATION", pkg, recipient: sessions[1]!, token: "tokZ" }));

    let at = T0;
    const waits: number[] = [];
    for (let attempt = 1; attempt <= MAX_MAIL_ATTEMPTS; attempt++) {
      expect(await drain(smtpJob, at)).toBe(attempt === 1 ? 2 : 1);
      const [ada] = (await rows()).filter((r) => r.toEmail === "ada@example.test");
      expect(ada!.attempts).toBe(attempt);
      if (ada!.nextAttemptAt) {
        waits.push((ada!.nextAttemptAt.getTime() - at.getTime()) / MINUTE);
        at = ada!.nextAttemptAt;
      }
    }
    expect(waits).toEqual([1, 2, 4, 8, 16, 32, 64]);
    const [ada, zoe] = await rows();
    expect(ada).toMatchObject({ status: "FAILED", attempts: 8, nextAttemptAt: null });
    expect(ada!.lastError).toMatch(/452/);
    expect(ada!.html).not.toContain("tokA");
    expect(zoe).toMatchObject({ status: "FAILED", attempts: 1 });
    expect(zoe!.lastError).toMatch(/550/);
    expect(await drain(smtpJob, new Date(at.getTime() + 1000 * MINUTE))).toBe(0);
    expect(sink.received).toEqual([]);
  });

  it("an unreachable server is an attempt like any other (connection refused, retried)", async () => {
    const org = await createTestOrg(t.db);
    const { pkg, sessions } = await makePackage(org);
    const closed = await startSmtpSink();
    await closed.close();
    const dead = createMailTransport({ smtpUrl: closed.url, from: "x@foliosign.test" });
    setClock(() => T0);
    await t.db.transaction((tx) => queuePackageMail(tx, { kind: "REMINDER", pkg, recipient: sessions[0]!, token: "tokDead" }));
    expect(await drain(mailJobs({ transport: () => dead }).sendMail, T0)).toBe(1);
    const [row] = await rows();
    expect(row).toMatchObject({ status: "QUEUED", attempts: 1 });
    expect(row!.lastError).toMatch(/ECONNREFUSED|ECONNECTION/);
  });
});

describe("the outbox and the app's mail operations", () => {
  const call = (route: typeof listRoute, url: string, opts: { method?: string; cookie?: string; params?: Record<string, string> } = {}) =>
    route(
      new Request(`http://localhost:3000${url}`, {
        method: opts.method ?? "GET",
        headers: { "sec-fetch-site": "same-origin", ...(opts.cookie ? { cookie: opts.cookie } : {}) },
      }),
      {
        params: Promise.resolve(opts.params ?? {}),
      },
    );
  const signIn = (userId: string, organisationId: string) => setSessionLookup(async () => ({ userId, organisationId }));

  it("keeps messages (KEPT) with their links; the list and the detail show them; another workspace gets 404", async () => {
    const org = await createTestOrg(t.db);
    const { pkg, sessions } = await makePackage(org);
    setClock(() => T0);
    await t.db.transaction((tx) => queuePackageMail(tx, { kind: "INVITATION", pkg, recipient: sessions[0]!, token: "tokOutbox" }));
    clock = new Date(T0.getTime() + MINUTE);
    await t.db.transaction((tx) => queuePackageMail(tx, { kind: "VOIDED", pkg, reason: "Wrong annex", recipients: sessions }));
    expect(await drain(outboxJob, clock)).toBe(3);
    expect((await rows()).map((r) => [r.status, r.transport, r.attempts])).toEqual([
      ["KEPT", "outbox", 0],
      ["KEPT", "outbox", 0],
      ["KEPT", "outbox", 0],
    ]);
    expect(sink.received).toEqual([]);

    signIn(org.userId, org.organisationId);
    const list = await call(listRoute, "/api/app/mail");
    expect(list.status).toBe(200);
    const { data } = (await list.json()) as {
      data: { messages: { id: string; kind: string; status: string; subject: string }[]; totalCount: number; transport: string };
    };
    expect(data.totalCount).toBe(3);
    expect(data.transport).toBe(env().SMTP_URL ? "smtp" : "outbox");
    expect(data.messages.map((m) => m.kind)).toEqual(["VOIDED", "VOIDED", "INVITATION"]); // newest first
    expect(data.messages[0]!.subject).toBe("Cancelled: “Lease <2030> & annex”");

    const inviteId = data.messages[2]!.id;
    const detail = await call(getRoute, `/api/app/mail/${inviteId}`, { params: { messageId: inviteId } });
    expect(detail.status).toBe(200);
    const body = (await detail.json()) as { data: { html: string; text: string; links: { text: string; url: string }[]; status: string } };
    expect(body.data.status).toBe("KEPT");
    expect(body.data.links).toEqual([{ text: "Review and sign", url: `${env().publicUrl}/sign/tokOutbox` }]);
    expect(body.data.html).toContain("/sign/tokOutbox");

    const sibling = await createTestWorkspace(t.db, org.organisationId, "sibling");
    const other = await call(getRoute, `/api/app/mail/${inviteId}`, { params: { messageId: inviteId }, cookie: `${WORKSPACE_COOKIE}=${sibling}` });
    expect(other.status).toBe(404);
    expect(await other.json()).toEqual({ error: "Message not found" });
    const otherList = (await (await call(listRoute, "/api/app/mail", { cookie: `${WORKSPACE_COOKIE}=${sibling}` })).json()) as { data: { totalCount: number } };
    expect(otherList.data.totalCount).toBe(0);
    expect((await call(getRoute, "/api/app/mail/mail_nope", { params: { messageId: "mail_nope" } })).status).toBe(404);
  });

  it("gates: a viewer (no canSendPackages) gets 403; a sender without canViewAllPackages sees only their packages' mail", async () => {
    const org = await createTestOrg(t.db);
    const { pkg, sessions } = await makePackage(org);
    await t.db.transaction((tx) => queuePackageMail(tx, { kind: "INVITATION", pkg, recipient: sessions[0]!, token: "tokGate" }));
    const viewer = await createTestMember(t.db, org, org.roleIds.viewer);
    signIn(viewer.user.id, org.organisationId);
    expect((await call(listRoute, "/api/app/mail")).status).toBe(403);
    const sender = await createTestMember(t.db, org, org.roleIds.sender);
    signIn(sender.user.id, org.organisationId);
    const res = await call(listRoute, "/api/app/mail");
    expect(res.status).toBe(200);
    expect(((await res.json()) as { data: { totalCount: number } }).data.totalCount).toBe(sender.role.permissions.canViewAllPackages ? 1 : 0);
  });

  it("test mail: the owner queues one to themself and the worker handles it; a member gets 403", async () => {
    const org = await createTestOrg(t.db);
    signIn(org.userId, org.organisationId);
    setClock(() => T0);
    const res = await call(testRoute, "/api/app/mail/test", { method: "POST" });
    expect(res.status).toBe(201);
    const { data } = (await res.json()) as { data: { id: string; status: string; kind: string; to: { email: string } } };
    expect(data).toMatchObject({ status: "QUEUED", kind: "TEST" });
    expect(data.to.email).toMatch(/^owner@acme-[a-z0-9-]+\.test$/);
    expect(await drain(smtpJob, T0)).toBe(1);
    expect(sink.received[0]).toMatchObject({ to: [data.to.email], subject: "Foliosign test message" });
    const detail = (await (await call(getRoute, `/api/app/mail/${data.id}`, { params: { messageId: data.id } })).json()) as { data: { status: string } };
    expect(detail.data.status).toBe("SENT");

    const member = await createTestMember(t.db, org, org.roleIds.admin);
    signIn(member.user.id, org.organisationId);
    expect((await call(testRoute, "/api/app/mail/test", { method: "POST" })).status).toBe(403);
  });
});

describe("two workers", () => {
  it("never send one message twice, and together send every message", async () => {
    const org = await createTestOrg(t.db);
    const { pkg } = await makePackage(org);
    setClock(() => T0);
    const recipients = Array.from({ length: 30 }, (_, i) => ({ sessionId: newId("ses"), email: `r${String(i).padStart(2, "0")}@example.test`, name: null }));
    await t.db.insert(recipientSessions).values(recipients.map((r, i) => ({ id: r.sessionId, packageId: pkg.id, position: 2 + i, email: r.email })));
    await t.db.transaction((tx) => queuePackageMail(tx, { kind: "VOIDED", pkg, reason: null, recipients }));
    const base = process.env.DATABASE_URL;
    let other: DbHandle = t.handle;
    if (t.handle.kind === "postgres" && base) {
      other = await openPostgres(t.url, { max: 2 });
    }
    try {
      const a = runDeclaredJob(mailJobs({ transport: () => smtp }).sendMail);
      const b = runDeclaredJob(mailJobs({ transport: () => smtp }).sendMail);
      await Promise.all([a.run(t.handle, new AbortController().signal), b.run(other, new AbortController().signal)]);
    } finally {
      if (other !== t.handle) await other.close();
    }
    const delivered = sink.received.flatMap((m) => m.to).sort();
    expect(delivered).toEqual(recipients.map((r) => r.email));
    expect(await t.db.select().from(mailMessages).where(eq(mailMessages.status, "SENT"))).toHaveLength(30);
  });
});
