/**
 * Protects the joining of package events to mail (issue 12, item 1), on a real database, through the real
 * package operations and jobs, with the mail job delivering to a real SMTP server on 127.0.0.1
 * (test-support/smtp-sink.ts):
 * - every SESSION_SENT queues the invitation in the same transaction (first send, the sequential advance, a
 *   scheduled send, a bulk send, a corrected address), and the link in the delivered message opens that recipient's
 *   signing view; a rolled-back send queues nothing;
 * - manual and automatic reminders carry the invitation's own link (its encrypted copy), and after a 60-minute
 *   signing URL replaced it, a fresh lasting link that works;
 * - the completed copy goes to every recipient and the owner only when sealing stores the files, never at the
 *   last signature; the recipient's link then offers the signed PDF for download;
 * - decline (owner + the others invited), void (those invited) and expiry (owner + those invited who had not
 *   finished) notices go to exactly those people; an ended package keeps no encrypted token.
 */
import { Readable } from "node:stream";
import { and, asc, eq, isNotNull } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { POST as sendRoute } from "@/app/api/v1/packages/[packageId]/send/route";
import { POST as bulkRoute } from "@/app/api/v1/packages/bulk-send/route";
import { POST as remindRoute } from "@/app/api/v1/packages/[packageId]/remind/route";
import { POST as voidRoute } from "@/app/api/v1/packages/[packageId]/void/route";
import { POST as signingUrlRoute } from "@/app/api/v1/packages/[packageId]/signing-url/route";
import { PATCH as updateRecipientRoute } from "@/app/api/v1/packages/[packageId]/recipients/[sessionId]/route";
import { POST as declineRoute } from "@/app/api/app/sign/[token]/decline/route";
import { GET as signedCopyRoute } from "@/app/api/app/sign/[token]/download/route";
import { mailMessages, packageFields, packages, recipientSessions, users } from "@/server/db/schema";
import { completeSession } from "@/server/domain/signing/complete-session";
import { packageJobs } from "@/server/domain/packages/jobs";
import { serviceActor } from "@/server/domain/packages/package-actor";
import { sendPackage } from "@/server/domain/packages/send-package";
import { createActiveTemplate } from "@/server/domain/packages/test-support/fixtures";
import { sealDuePackages } from "@/server/domain/sealing/seal-due-packages";
import { resetSigningIdentity } from "@/server/domain/sealing/signing-identity";
import { getSigningView } from "@/server/domain/signing/get-signing-view";
import { env } from "@/server/env";
import { runDeclaredJob } from "@/server/jobs/run-declared-job";
import { setClock } from "@/server/lib/clock";
import { runDueItem } from "@/server/lib/jobs";
import { getFileStore } from "@/server/storage/get-file-store";
import { useTestDb } from "@/server/test/db";
import { createTestKey, createTestOrg } from "@/server/test/factories";
import { callJson, callRoute } from "@/server/test/http";
import { makeOriginal } from "@/server/test/sealing-fixtures";
import { mailJobs } from "./jobs";
import { startSmtpSink, type TReceivedMail, type TSmtpSink } from "./test-support/smtp-sink";
import { createMailTransport, type TMailTransport } from "./transport";
import { packageFromTemplate } from "@/server/test/package-from-template";

const t = useTestDb();
const T0 = new Date("2031-04-01T09:00:00.000Z");
const DAY = 24 * 60 * 60 * 1000;
let clock = T0;
let sink: TSmtpSink;
let smtp: TMailTransport;

beforeAll(async () => {
  sink = await startSmtpSink();
  smtp = createMailTransport({ smtpUrl: sink.url, from: "Foliosign <no-reply@foliosign.test>" });
});
afterAll(() => sink.close());
beforeEach(() => {
  clock = T0;
  setClock(() => clock);
  resetSigningIdentity();
});
afterEach(() => {
  sink.received.length = 0;
  setClock(undefined);
});

const smtpJob = mailJobs({ transport: () => smtp }).sendMail;

/** Delivers every due message to the SMTP sink, as the worker would after the commits; returns them. */
async function deliver(): Promise<TReceivedMail[]> {
  const before = sink.received.length;
  while (await runDueItem(t.db, smtpJob, { at: clock, skip: [] }));
  return sink.received.slice(before);
}

const queued = () => t.db.select().from(mailMessages).where(eq(mailMessages.status, "QUEUED"));

/** The signing-link token in a delivered message's text part (the button's address). */
function linkToken(mail: TReceivedMail | undefined): string {
  const base = env().publicUrl.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const match = new RegExp(`${base}/sign/([A-Za-z0-9_-]+)`).exec(mail?.text ?? "");
  expect(match, `no signing link in: ${mail?.text}`).not.toBeNull();
  return decodeURIComponent(match![1]!);
}

const viewOf = (token: string) => getSigningView(t.db, { token, clientAddress: null, userAgent: null });
const recipient = (sessionId: string) => ({ kind: "recipient" as const, sessionId, clientAddress: "203.0.113.7", userAgent: "vitest" });
const to = (mails: TReceivedMail[]) => mails.map((m) => m.to.join(",")).sort();

/** A two-role template whose original PDF is really stored; a package from it, two recipients in order. */
async function setup(opts: { send?: boolean } = {}) {
  const org = await createTestOrg(t.db);
  const [owner] = await t.db.select().from(users).where(eq(users.id, org.userId));
  const key = (await createTestKey(t.db, org)).value;
  const tpl = await createActiveTemplate(t.db, org);
  await (await getFileStore()).put("files/lease", Readable.from([await makeOriginal(1)]), { contentType: "application/pdf" });
  const created = await packageFromTemplate(key, {
    templateId: tpl.templateId,
    title: "Lease 7C",
    recipients: [
      { email: "ana@example.com", name: "Ana Tenant", roleIndex: 0 },
      { email: "ben@example.com", name: "Ben Landlord", roleIndex: 1 },
    ],
  });
  const packageId = created.id;
  const [first, second] = created.recipientSessions;
  if (opts.send !== false) expect((await callJson(sendRoute, { key, params: { packageId }, body: {} })).status).toBe(200);
  return { org, owner: owner!, key, packageId, first: first!.id, second: second!.id };
}

/** Fills a recipient's fields with stored values (as the signing page would) and finishes. */
async function sign(sessionId: string, name: string) {
  await t.db.update(packageFields).set({ value: name, valueKind: "typed" }).where(eq(packageFields.sessionId, sessionId));
  return completeSession(t.db, recipient(sessionId));
}

async function tick(job: Parameters<typeof runDeclaredJob>[0]) {
  await runDeclaredJob(job).run(t.handle, new AbortController().signal);
}

const ciphertexts = (packageId: string) =>
  t.db
    .select({ id: recipientSessions.id })
    .from(recipientSessions)
    .where(and(eq(recipientSessions.packageId, packageId), isNotNull(recipientSessions.tokenCiphertext)));

describe("invitations on SESSION_SENT", () => {
  it("the first send invites recipient one only; the delivered link opens their signing view", async () => {
    const s = await setup();
    const mails = await deliver();
    expect(to(mails)).toEqual(["ana@example.com"]);
    expect(mails[0]!.subject).toContain("invites you to sign “Lease 7C”");
    const view = await viewOf(linkToken(mails[0]));
    expect(view).toMatchObject({ state: "OPEN", recipient: { email: "ana@example.com" } });
    const [row] = await t.db.select().from(mailMessages).where(eq(mailMessages.sessionId, s.first));
    expect(row).toMatchObject({ kind: "INVITATION", status: "SENT", packageId: s.packageId });
  });

  it("a send rolled back with its transaction queues nothing", async () => {
    const s = await setup({ send: false });
    await t.db
      .transaction(async (tx) => {
        await sendPackage(tx, serviceActor(s.org.organisationId, s.org.workspaceId), { packageId: s.packageId });
        expect((await tx.select().from(mailMessages)).length).toBe(1); // queued inside…
        throw new Error("the rest of the change failed");
      })
      .catch(() => undefined);
    expect(await t.db.select().from(mailMessages)).toEqual([]); // …and gone with the rollback
    expect(await deliver()).toEqual([]);
  });

  it("recipient two is invited only when recipient one finishes (sequential advance), with a working link", async () => {
    const s = await setup();
    await deliver();
    await sign(s.first, "Ana Tenant");
    const mails = await deliver();
    expect(to(mails)).toEqual(["ben@example.com"]);
    expect(await viewOf(linkToken(mails[0]))).toMatchObject({ state: "OPEN", recipient: { email: "ben@example.com" } });
  });

  it("a scheduled send invites when the scheduler sends it, not before", async () => {
    const s = await setup({ send: false });
    const sendAt = new Date(T0.getTime() + DAY);
    expect((await callJson(sendRoute, { key: s.key, params: { packageId: s.packageId }, body: { sendAt: sendAt.toISOString() } })).status).toBe(200);
    await tick(packageJobs().sendScheduled);
    expect(await deliver()).toEqual([]);
    clock = sendAt;
    await tick(packageJobs().sendScheduled);
    const mails = await deliver();
    expect(to(mails)).toEqual(["ana@example.com"]);
    expect(await viewOf(linkToken(mails[0]))).toMatchObject({ state: "OPEN" });
  });

  it("a bulk send invites the first recipient of every package sent", async () => {
    const s = await setup();
    await deliver();
    const [pkg] = await t.db.select().from(packages).where(eq(packages.id, s.packageId));
    const items = ["cleo", "dan"].map((n) => ({
      title: `Lease ${n}`,
      recipients: [
        { email: `${n}@example.com`, name: n, roleIndex: 0 },
        { email: `${n}.2@example.com`, roleIndex: 1 },
      ],
    }));
    const res = await callJson<{ data: { results: { status: string }[] } }>(bulkRoute, { key: s.key, body: { templateId: pkg!.templateId, items } });
    expect(res.body.data.results.map((r) => r.status)).toEqual(["sent", "sent"]);
    const mails = await deliver();
    expect(to(mails)).toEqual(["cleo@example.com", "dan@example.com"]);
    for (const m of mails) expect(await viewOf(linkToken(m))).toMatchObject({ state: "OPEN" });
  });

  it("a corrected address gets a new invitation; the old link stops working", async () => {
    const s = await setup();
    const oldToken = linkToken((await deliver())[0]);
    const res = await callJson(updateRecipientRoute, {
      key: s.key,
      params: { packageId: s.packageId, sessionId: s.first },
      body: { email: "ana.new@example.com" },
    });
    expect(res.status).toBe(200);
    const mails = await deliver();
    expect(to(mails)).toEqual(["ana.new@example.com"]);
    expect(await viewOf(linkToken(mails[0]))).toMatchObject({ state: "OPEN", recipient: { email: "ana.new@example.com" } });
    await expect(viewOf(oldToken)).rejects.toMatchObject({ reason: "NOT_FOUND" });
  });
});

describe("reminders on SESSION_REMINDED", () => {
  it("a manual reminder carries the invitation's own link, which still works", async () => {
    const s = await setup();
    const invitationToken = linkToken((await deliver())[0]);
    expect((await callJson(remindRoute, { key: s.key, params: { packageId: s.packageId }, body: {} })).status).toBe(200);
    const mails = await deliver();
    expect(to(mails)).toEqual(["ana@example.com"]);
    expect(mails[0]!.subject).toContain("Reminder");
    expect(linkToken(mails[0])).toBe(invitationToken);
    expect(await viewOf(invitationToken)).toMatchObject({ state: "OPEN" });
  });

  it("after a 60-minute signing URL replaced the link, a reminder brings a fresh lasting link that works", async () => {
    const s = await setup();
    await deliver();
    const url = await callJson<{ data: { url: string } }>(signingUrlRoute, { key: s.key, params: { packageId: s.packageId }, body: { sessionId: s.first } });
    expect(url.status).toBe(200);
    expect((await callJson(remindRoute, { key: s.key, params: { packageId: s.packageId }, body: { sessionId: s.first } })).status).toBe(200);
    const token = linkToken((await deliver())[0]);
    expect(url.body.data.url).not.toContain(token);
    clock = new Date(T0.getTime() + 2 * 60 * 60 * 1000); // past the signing URL's hour: the reminder's link lasts
    expect(await viewOf(token)).toMatchObject({ state: "OPEN", recipient: { email: "ana@example.com" } });
  });

  it("an automatic reminder is mailed when due, with a working link", async () => {
    const s = await setup({ send: false });
    await t.db
      .update(packages)
      .set({ reminders: { firstAfterDays: 2, repeatEveryDays: 2, max: 1 } })
      .where(eq(packages.id, s.packageId));
    expect((await callJson(sendRoute, { key: s.key, params: { packageId: s.packageId }, body: {} })).status).toBe(200);
    await deliver();
    clock = new Date(T0.getTime() + 2 * DAY);
    await tick(packageJobs().remind);
    const mails = await deliver();
    expect(to(mails)).toEqual(["ana@example.com"]);
    expect(mails[0]!.subject).toContain("Reminder");
    expect(await viewOf(linkToken(mails[0]))).toMatchObject({ state: "OPEN" });
  });
});

describe("completion", () => {
  it("mails the completed copy to every recipient and the owner only when sealing stores the files; the link downloads it", async () => {
    const s = await setup();
    await sign(s.first, "Ana Tenant");
    await sign(s.second, "Ben Landlord");
    await deliver();
    // The last signature only makes sealing due: no completed mail yet.
    expect((await t.db.select().from(mailMessages).where(eq(mailMessages.kind, "COMPLETED"))).length).toBe(0);
    expect(await sealDuePackages(t.db)).toEqual([{ packageId: s.packageId, outcome: "sealed" }]);
    const mails = await deliver();
    expect(to(mails)).toEqual(["ana@example.com", "ben@example.com", s.owner.email].sort());
    for (const m of mails) expect(m.subject).toBe("Completed: “Lease 7C”");
    const ana = mails.find((m) => m.to.includes("ana@example.com"))!;
    const token = linkToken(ana);
    expect(await viewOf(token)).toMatchObject({ state: "CLOSED", reason: "COMPLETED", signedCopy: true });
    const res = await callRoute(signedCopyRoute, { params: { token } });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/pdf");
    expect(
      Buffer.from(await res.arrayBuffer())
        .subarray(0, 5)
        .toString("latin1"),
    ).toBe("%PDF-");
    const owner = mails.find((m) => m.to.includes(s.owner.email))!;
    expect(owner.text).toContain(`${env().publicUrl}/packages/${s.packageId}`);
    expect(await ciphertexts(s.packageId)).toEqual([]);
  });

  it("a recipient who signed through a 60-minute signing URL keeps that link: the completed mail carries it, past its hour", async () => {
    const s = await setup();
    await deliver();
    const url = await callJson<{ data: { url: string } }>(signingUrlRoute, { key: s.key, params: { packageId: s.packageId }, body: { sessionId: s.first } });
    const signedWith = decodeURIComponent(url.body.data.url.split("/sign/")[1]!);
    await sign(s.first, "Ana Tenant");
    await sign(s.second, "Ben Landlord");
    await deliver();
    expect(await sealDuePackages(t.db)).toEqual([{ packageId: s.packageId, outcome: "sealed" }]);
    const ana = (await deliver()).find((m) => m.to.includes("ana@example.com"));
    expect(linkToken(ana)).toBe(signedWith);
    clock = new Date(T0.getTime() + 2 * 60 * 60 * 1000);
    expect(await viewOf(signedWith)).toMatchObject({ state: "CLOSED", reason: "COMPLETED", signedCopy: true });
  });

  it("before completion the recipient's download is 409; an unknown link is 404", async () => {
    const s = await setup();
    const token = linkToken((await deliver())[0]);
    expect((await callJson(signedCopyRoute, { params: { token } })).status).toBe(409);
    expect((await callJson(signedCopyRoute, { params: { token: "x".repeat(43) } })).status).toBe(404);
    expect(s.packageId).toBeTruthy();
  });
});

describe("notices", () => {
  it("a decline notifies the owner and the other recipients who were invited, with the reason", async () => {
    const s = await setup();
    await deliver();
    await sign(s.first, "Ana Tenant");
    const benToken = linkToken((await deliver())[0]);
    const res = await callJson(declineRoute, { params: { token: benToken }, body: { reason: "Wrong rent" } });
    expect(res.status).toBe(200);
    const mails = await deliver();
    expect(to(mails)).toEqual(["ana@example.com", s.owner.email].sort());
    for (const m of mails) expect(m.text).toContain("Wrong rent");
    expect(await ciphertexts(s.packageId)).toEqual([]);
  });

  it("a decline before anyone else was invited notifies the owner only", async () => {
    const s = await setup();
    const anaToken = linkToken((await deliver())[0]);
    expect((await callJson(declineRoute, { params: { token: anaToken }, body: { reason: "Not me" } })).status).toBe(200);
    expect(to(await deliver())).toEqual([s.owner.email]);
  });

  it("a void notifies those invited, not a recipient whose turn never came", async () => {
    const s = await setup();
    await deliver();
    expect((await callJson(voidRoute, { key: s.key, params: { packageId: s.packageId }, body: { reason: "Sent by mistake" } })).status).toBe(200);
    const mails = await deliver();
    expect(to(mails)).toEqual(["ana@example.com"]);
    expect(mails[0]!.text).toContain("Sent by mistake");
    expect(await ciphertexts(s.packageId)).toEqual([]);
  });

  it("expiry notifies the owner and those invited who had not finished", async () => {
    const s = await setup();
    await deliver();
    await sign(s.first, "Ana Tenant"); // Ana finished: Ben is invited and has not
    await deliver();
    const expiresAt = new Date(T0.getTime() + 3 * DAY);
    await t.db.update(packages).set({ expiresAt }).where(eq(packages.id, s.packageId));
    clock = expiresAt;
    await tick(packageJobs().expire);
    const mails = await deliver();
    expect(to(mails)).toEqual(["ben@example.com", s.owner.email].sort());
    const [pkg] = await t.db.select().from(packages).where(eq(packages.id, s.packageId));
    expect(pkg!.status).toBe("VOID");
    expect(await ciphertexts(s.packageId)).toEqual([]);
    expect(await queued()).toEqual([]);
  });

  it("stores no raw token: only its hash and an encrypted copy", async () => {
    const s = await setup();
    const token = linkToken((await deliver())[0]);
    const rows = await t.db.select().from(recipientSessions).where(eq(recipientSessions.packageId, s.packageId)).orderBy(asc(recipientSessions.position));
    expect(JSON.stringify(rows)).not.toContain(token);
    expect(rows[0]!.tokenCiphertext).toMatch(/^v1:/);
  });
});
