/**
 * A member's signed-in sessions (Account → Where you're signed in): every sign-in starts one (its row, and a
 * `member.signed_in` event with the device and address); the member lists theirs, this one first; signs out one
 * of the others or all of them, and such a session's next request is signed out; signing out, a new password, a
 * removed membership and a week without a request end sessions too; the prune job deletes idle rows.
 */
import { and, eq } from "drizzle-orm";
import { describe, expect, it, vi } from "vitest";
import { GET as listRoute } from "@/app/api/app/me/sessions/route";
import { POST as endRoute } from "@/app/api/app/me/sessions/[sessionId]/sign-out/route";
import { POST as endOthersRoute } from "@/app/api/app/me/sessions/sign-out-others/route";
import { POST as endMemberRoute } from "@/app/api/app/members/[userId]/sessions/sign-out/route";
import { GET as memberSessionsRoute } from "@/app/api/app/members/[userId]/sessions/route";
import { GET as failedRoute } from "@/app/api/app/me/failed-sign-ins/route";
import { auditEvents, mailMessages, memberSessions } from "@/server/db/schema";
import { authorizeCredentials } from "@/server/auth/authorize-credentials";
import { changeOwnPassword } from "@/server/auth/own-password";
import { loadSessionActor } from "@/server/domain/access/load-session-actor";
import { describeActivity } from "@/server/domain/activity/describe-activity";
import { addMember } from "@/server/domain/organisation/add-member";
import { createOrganisationWithOwner as createParsedOrganisation } from "@/server/domain/organisation/create-organisation";
import { removeMember } from "@/server/domain/organisation/remove-member";
import { ZCreateOwner } from "@/server/domain/organisation/schemas";
import { runDueItem } from "@/server/lib/jobs";
import { setClock } from "@/server/lib/clock";
import { viaBoundaryNoActor } from "@/server/test/boundary";
import { callApp } from "@/server/test/app-http";
import { createTestMember } from "@/server/test/actors";
import { useTestDb } from "@/server/test/db";
import { createTestOrg } from "@/server/test/factories";
import { startSmtpSink, type TSmtpSink } from "@/server/domain/mail/test-support/smtp-sink";
import { createMailTransport } from "@/server/domain/mail/transport";
import { describeDevice } from "./describe-device";
import { memberSessionJobs } from "./jobs";
import { endSignedOutSession } from "./session-liveness";
import type { TMemberSession, TMyFailedSignIns } from "./schemas";

const t = useTestDb();
const createOrganisationWithOwner = viaBoundaryNoActor(ZCreateOwner, createParsedOrganisation);
const owner = { name: "Olga Owner", email: "olga@example.com", password: "correct horse battery", organisationName: "Acme" };

const FIREFOX_WINDOWS = "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0";
const SAFARI_IPHONE = "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1";
const CHROME_LINUX = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";

const T0 = new Date("2026-11-02T09:00:00Z").getTime();
const SECOND = 1000;
const MINUTE = 60 * SECOND;
const DAY = 24 * 60 * MINUTE;
const at = (ms: number) => setClock(() => new Date(T0 + ms));

type TIdentity = { userId: string; organisationId: string; sessionId: string };

async function signIn(email: string, password: string, userAgent: string | null, clientAddress: string | null): Promise<TIdentity> {
  const user = await authorizeCredentials(t.db, { email, password }, { clientAddress, userAgent });
  if (!user) throw new Error("sign-in refused");
  return { userId: user.id, organisationId: user.organisationId, sessionId: user.sessionId };
}

async function setup() {
  at(0);
  const org = await createOrganisationWithOwner(t.db, owner);
  const laptop = await signIn(owner.email, owner.password, FIREFOX_WINDOWS, "198.51.100.7");
  at(10 * SECOND);
  const phone = await signIn(owner.email, owner.password, SAFARI_IPHONE, "203.0.113.9");
  return { org, laptop, phone };
}

const SAM = { email: "sam@example.com", password: "sams password 1" };

/** The owner, signed in as `by`, adds Sam with a password (as Admin, the owner's role); Sam's user id. */
async function addSam(by: TIdentity): Promise<string> {
  const ownerActor = (await loadSessionActor(t.db, by))!;
  const added = await addMember(t.db, ownerActor, { method: "password", name: "Sam", email: SAM.email, roleId: ownerActor.role.id, password: SAM.password });
  return added.userId;
}

const signInSam = (userAgent: string) => signIn(SAM.email, SAM.password, userAgent, null);

/** The names the Activity sentences may use: none known, or the given users. */
const activityNames = (users = new Map<string, { name: string; email: string }>()) => ({
  users,
  apiKeys: new Map(),
  roles: new Map(),
  workspaces: new Map(),
  endpoints: new Map(),
  signingGroups: new Map(),
});

const live = async (identity: TIdentity) => (await loadSessionActor(t.db, identity)) !== null;
const list = (as: TIdentity) => callApp<{ data: TMemberSession[] }>(listRoute, { as });
const sessionRows = async (userId: string) => (await t.db.select().from(memberSessions).where(eq(memberSessions.userId, userId))).map((r) => r.id).sort();
const eventsOf = async (userId: string, action: string) =>
  t.db
    .select()
    .from(auditEvents)
    .where(and(eq(auditEvents.subjectId, userId), eq(auditEvents.action, action)))
    .orderBy(auditEvents.createdAt);

describe("signing in", () => {
  it("starts a session per sign-in and records it with the device and address", async () => {
    const { org, laptop, phone } = await setup();
    expect(laptop.sessionId).not.toBe(phone.sessionId);
    expect(await sessionRows(org.userId)).toEqual([laptop.sessionId, phone.sessionId].sort());
    const events = await eventsOf(org.userId, "member.signed_in");
    expect(events.map((e) => [e.actorUserId, e.clientAddress, e.data, e.workspaceId])).toEqual([
      [org.userId, "198.51.100.7", { sessionId: laptop.sessionId, device: "Firefox on Windows" }, null],
      [org.userId, "203.0.113.9", { sessionId: phone.sessionId, device: "Safari on iPhone" }, null],
    ]);
    expect(describeActivity(events[1]!, activityNames())).toBe("Signed in (Safari on iPhone)");
  });

  it("a wrong password starts no session", async () => {
    const { org } = await setup();
    expect(await authorizeCredentials(t.db, { email: owner.email, password: "wrong password!" }, { clientAddress: null, userAgent: CHROME_LINUX })).toBeNull();
    expect(await sessionRows(org.userId)).toHaveLength(2);
    expect(await eventsOf(org.userId, "member.signed_in")).toHaveLength(2);
  });

  it("keeps at most 512 characters of the User-Agent", async () => {
    const { org } = await setup();
    await signIn(owner.email, owner.password, `${CHROME_LINUX} ${"x".repeat(1000)}`, null);
    const agents = (await t.db.select({ ua: memberSessions.userAgent }).from(memberSessions).where(eq(memberSessions.userId, org.userId))).map(
      (r) => r.ua!.length,
    );
    expect(Math.max(...agents)).toBe(512);
  });
});

describe("a sign-in from an unfamiliar address", () => {
  /** Signs in with the test's SMTP server (or the outbox), and waits for the mail the sign-in sends, if any. */
  async function signInMailing(sink: TSmtpSink | null, email: string, password: string, userAgent: string | null, clientAddress: string | null) {
    let sending: Promise<void> | undefined;
    const transport = createMailTransport({ smtpUrl: sink?.url, from: "Foliosign <no-reply@example.com>" });
    const user = await authorizeCredentials(
      t.db,
      { email, password },
      { clientAddress, userAgent },
      { transport, sending: (p) => (sending = p), wait: async () => {} },
    );
    await sending;
    return user;
  }

  it("mails the member once an address they have not used in 30 days signs in — not at their first sign-in, nor from a familiar one", async () => {
    const sink = await startSmtpSink();
    try {
      at(0);
      await createOrganisationWithOwner(t.db, owner);
      // The account's first sign-in: no familiar address to differ from.
      expect(await signInMailing(sink, owner.email, owner.password, FIREFOX_WINDOWS, "198.51.100.7")).not.toBeNull();
      at(MINUTE);
      await signInMailing(sink, owner.email, owner.password, FIREFOX_WINDOWS, "198.51.100.7");
      expect(sink.received).toEqual([]);
      // A wrong password from a new address sends nothing.
      expect(await signInMailing(sink, owner.email, "wrong password!", SAFARI_IPHONE, "203.0.113.9")).toBeNull();
      expect(sink.received).toEqual([]);

      at(2 * MINUTE);
      expect(await signInMailing(sink, owner.email, owner.password, SAFARI_IPHONE, "203.0.113.9")).not.toBeNull();
      expect(sink.received.map((m) => [m.to, m.subject])).toEqual([[["olga@example.com"], "New sign-in to your Foliosign account"]]);
      const text = sink.received[0]!.text;
      expect(text).toContain("Your Foliosign account (olga@example.com) signed in to Acme from an address it had not used in the last 30 days:");
      expect(text).toContain("Safari on iPhone, from 203.0.113.9, on 2 November 2026, 09:02 UTC.");
      expect(text).toMatch(/See where you’re signed in: http:\/\/[^\s]+\/account\n/);
      // Familiar now.
      await signInMailing(sink, owner.email, owner.password, SAFARI_IPHONE, "203.0.113.9");
      expect(sink.received).toHaveLength(1);
      // 31 days later the first address is unfamiliar again.
      at(31 * DAY);
      await signInMailing(sink, owner.email, owner.password, FIREFOX_WINDOWS, "198.51.100.7");
      expect(sink.received.map((m) => m.text.includes("Firefox on Windows, from 198.51.100.7"))).toEqual([false, true]);
      // Without a test's hook too (as next-auth calls it): the sign-in answers, and the mail follows.
      const transport = createMailTransport({ smtpUrl: sink.url, from: "Foliosign <no-reply@example.com>" });
      expect(await authorizeCredentials(t.db, owner, { clientAddress: "192.0.2.77", userAgent: CHROME_LINUX }, { transport })).not.toBeNull();
      await vi.waitFor(() => expect(sink.received.map((m) => m.text.includes("Chrome on Linux, from 192.0.2.77"))).toEqual([false, false, true]), {
        timeout: 5000,
      });
    } finally {
      await sink.close();
    }
  });

  it("sends nothing without a mail server (the outbox is read by members) or without an address; a refused mail leaves the sign-in as it was", async () => {
    const { org } = await setup();
    expect(await signInMailing(null, owner.email, owner.password, CHROME_LINUX, "192.0.2.50")).not.toBeNull();
    expect(await t.db.select().from(mailMessages)).toEqual([]);
    const sink = await startSmtpSink();
    try {
      expect(await signInMailing(sink, owner.email, owner.password, CHROME_LINUX, null)).not.toBeNull();
      expect(sink.received).toEqual([]);
      sink.refuseRcpt = () => 550;
      const user = await signInMailing(sink, owner.email, owner.password, CHROME_LINUX, "192.0.2.51");
      expect(user).toMatchObject({ id: org.userId });
      expect(await live({ userId: user!.id, organisationId: user!.organisationId, sessionId: user!.sessionId })).toBe(true);
      expect(sink.received).toEqual([]);
    } finally {
      await sink.close();
    }
  });
});

describe("a failed sign-in", () => {
  const wrong = (email: string, clientAddress: string | null, userAgent: string | null = CHROME_LINUX) =>
    authorizeCredentials(t.db, { email, password: "wrong password!" }, { clientAddress, userAgent });
  const failed = (as: TIdentity) => callApp<{ data: TMyFailedSignIns }>(failedRoute, { as });

  it("is recorded about the member, by nobody but the address, with the device; Activity tells it", async () => {
    const { org } = await setup();
    at(MINUTE);
    expect(await wrong(owner.email, "192.0.2.44")).toBeNull();
    const events = await eventsOf(org.userId, "member.sign_in_failed");
    expect(events.map((e) => [e.organisationId, e.workspaceId, e.actorUserId, e.apiKeyId, e.clientAddress, e.data])).toEqual([
      [org.organisationId, null, null, null, "192.0.2.44", { device: "Chrome on Linux" }],
    ]);
    const names = activityNames(new Map([[org.userId, { name: owner.name, email: owner.email }]]));
    expect(describeActivity(events[0]!, names)).toBe("A sign-in as Olga Owner (olga@example.com) failed: wrong password (Chrome on Linux)");
  });

  it("records nothing for an address that is no member's, a member without a password yet, or a right password", async () => {
    const { org, laptop } = await setup();
    const ownerActor = (await loadSessionActor(t.db, laptop))!;
    const invited = await addMember(t.db, ownerActor, { method: "invite", name: "Ivy", email: "ivy@example.com", roleId: ownerActor.role.id });
    expect(await wrong("nobody@example.com", "192.0.2.44")).toBeNull();
    expect(await wrong("ivy@example.com", "192.0.2.44")).toBeNull();
    const all = await t.db.select().from(auditEvents).where(eq(auditEvents.action, "member.sign_in_failed"));
    expect(all).toEqual([]);
    expect(await eventsOf(invited.userId, "member.sign_in_failed")).toEqual([]);
    expect(await eventsOf(org.userId, "member.sign_in_failed")).toEqual([]);
  });

  it("is recorded only while the throttle lets the attempt through: a refused guess writes nothing", async () => {
    const { org } = await setup();
    for (let i = 0; i < 10; i++) expect(await wrong(owner.email, "192.0.2.44")).toBeNull();
    await expect(wrong(owner.email, "192.0.2.44")).rejects.toThrow();
    expect(await eventsOf(org.userId, "member.sign_in_failed")).toHaveLength(10);
  });

  it("the member sees theirs of the last 30 days on the Account page: how many, the newest 10, newest first", async () => {
    const { laptop } = await setup();
    await addSam(laptop);
    const sam = await signInSam(CHROME_LINUX);
    // Two 31 days ago, then twelve over the last 12 days, from two addresses (each under the throttle's limit).
    at(-31 * DAY);
    await wrong(owner.email, "192.0.2.1", FIREFOX_WINDOWS);
    await wrong(owner.email, "192.0.2.1", FIREFOX_WINDOWS);
    for (let i = 0; i < 12; i++) {
      at(-(12 - i) * DAY);
      await wrong(owner.email, i % 2 === 0 ? "192.0.2.2" : "192.0.2.3", i === 11 ? SAFARI_IPHONE : null);
    }
    await wrong(SAM.email, "192.0.2.9");
    at(0);
    const res = await failed(laptop);
    expect(res.status).toBe(200);
    const mine = res.body.data;
    expect(mine.count).toBe(12);
    expect(mine.days).toBe(30);
    expect(mine.recent).toHaveLength(10);
    expect(mine.recent[0]).toEqual({ at: new Date(T0 - DAY).toISOString(), clientAddress: "192.0.2.3", device: "Safari on iPhone" });
    expect(mine.recent[1]).toEqual({ at: new Date(T0 - 2 * DAY).toISOString(), clientAddress: "192.0.2.2", device: "An unknown browser" });
    expect(mine.recent.at(-1)!.at).toBe(new Date(T0 - 10 * DAY).toISOString());
    // Sam sees only Sam's; nobody signed in gets 401.
    expect((await failed(sam)).body.data).toEqual({
      count: 1,
      days: 30,
      recent: [{ at: new Date(T0 - DAY).toISOString(), clientAddress: "192.0.2.9", device: "Chrome on Linux" }],
    });
    expect((await callApp(failedRoute, { as: null })).status).toBe(401);
  });
});

describe("the list", () => {
  it("shows this session first, then the others by last activity, with device, address and times", async () => {
    const { laptop, phone } = await setup();
    at(5 * MINUTE);
    expect(await live(phone)).toBe(true); // the phone's request moves its last activity
    const res = await list(laptop);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual([
      {
        id: laptop.sessionId,
        current: true,
        device: "Firefox on Windows",
        clientAddress: "198.51.100.7",
        signedInAt: new Date(T0).toISOString(),
        // The list's own request moved it (a minute old or more).
        lastActiveAt: new Date(T0 + 5 * MINUTE).toISOString(),
      },
      {
        id: phone.sessionId,
        current: false,
        device: "Safari on iPhone",
        clientAddress: "203.0.113.9",
        signedInAt: new Date(T0 + 10 * SECOND).toISOString(),
        lastActiveAt: new Date(T0 + 5 * MINUTE).toISOString(),
      },
    ]);
    // From the phone, the phone is first.
    expect((await list(phone)).body.data.map((s) => [s.id, s.current])).toEqual([
      [phone.sessionId, true],
      [laptop.sessionId, false],
    ]);
  });

  it("shows only the member's own sessions in this organisation; nobody signed in is 401", async () => {
    const { org, laptop } = await setup();
    await addSam(laptop);
    const sam = await signInSam(CHROME_LINUX);
    expect((await list(sam)).body.data.map((s) => s.id)).toEqual([sam.sessionId]);
    expect((await list(laptop)).body.data.map((s) => s.id)).not.toContain(sam.sessionId);
    expect(sam.organisationId).toBe(org.organisationId);
    expect((await callApp(listRoute, { as: null })).status).toBe(401);
  });
});

describe("signing out another session", () => {
  it("ends it: its next request is signed out; the event names the device", async () => {
    const { org, laptop, phone } = await setup();
    at(MINUTE);
    const res = await callApp(endRoute, { as: laptop, params: { sessionId: phone.sessionId } });
    expect(res).toEqual({ status: 200, body: { data: { id: phone.sessionId, ended: true } } });
    expect(await live(phone)).toBe(false);
    expect(await live(laptop)).toBe(true);
    expect((await list(laptop)).body.data.map((s) => s.id)).toEqual([laptop.sessionId]);
    const [event] = await eventsOf(org.userId, "member.session_ended");
    expect(event).toMatchObject({
      actorUserId: org.userId,
      data: { sessionId: phone.sessionId, device: "Safari on iPhone", signedInAt: new Date(T0 + 10 * SECOND).toISOString() },
    });
    expect(describeActivity(event!, activityNames())).toBe("Signed out their session on Safari on iPhone from another session");
  });

  it("refuses this session (409), one already ended or another member's (404), writing nothing", async () => {
    const { org, laptop, phone } = await setup();
    const self = await callApp(endRoute, { as: laptop, params: { sessionId: laptop.sessionId } });
    expect(self).toEqual({ status: 409, body: { error: "This is the session you are using: sign out instead" } });
    await addSam(laptop);
    const sam = await signInSam(CHROME_LINUX);
    const theirs = await callApp(endRoute, { as: sam, params: { sessionId: phone.sessionId } });
    expect(theirs).toEqual({ status: 404, body: { error: "Session not found" } });
    expect(await live(phone)).toBe(true);
    await callApp(endRoute, { as: laptop, params: { sessionId: phone.sessionId } });
    const again = await callApp(endRoute, { as: laptop, params: { sessionId: phone.sessionId } });
    expect(again.status).toBe(404);
    expect(await eventsOf(org.userId, "member.session_ended")).toHaveLength(1);
    expect(await eventsOf(sam.userId, "member.session_ended")).toHaveLength(0);
  });
});

describe("signing out every other session", () => {
  it("ends all the member's sessions but this one, once; with none left it writes nothing", async () => {
    const { org, laptop, phone } = await setup();
    const desktop = await signIn(owner.email, owner.password, CHROME_LINUX, "192.0.2.1");
    const res = await callApp(endOthersRoute, { as: desktop });
    expect(res).toEqual({ status: 200, body: { data: { ended: 2 } } });
    expect([await live(laptop), await live(phone), await live(desktop)]).toEqual([false, false, true]);
    const events = await eventsOf(org.userId, "member.other_sessions_ended");
    expect(events).toHaveLength(1);
    expect((events[0]!.data.sessionIds as string[]).sort()).toEqual([laptop.sessionId, phone.sessionId].sort());
    expect(describeActivity(events[0]!, activityNames())).toBe("Signed out 2 other sessions");
    expect(await callApp(endOthersRoute, { as: desktop })).toEqual({ status: 200, body: { data: { ended: 0 } } });
    expect(await eventsOf(org.userId, "member.other_sessions_ended")).toHaveLength(1);
  });

  it("needs a session to keep (409 for a caller without one)", async () => {
    const { org } = await setup();
    const res = await callApp(endOthersRoute, { as: { userId: org.userId, organisationId: org.organisationId } });
    expect(res).toEqual({ status: 409, body: { error: "Only a signed-in session can sign out the others" } });
    expect(await sessionRows(org.userId)).toHaveLength(2);
  });
});

describe("the owner signs a member out everywhere", () => {
  async function withSam() {
    const { org, laptop } = await setup();
    const samId = await addSam(laptop);
    const samDesk = await signInSam(CHROME_LINUX);
    const samPhone = await signInSam(SAFARI_IPHONE);
    return { org, laptop, samId, samDesk, samPhone };
  }

  it("the owner first sees where they are signed in: device, address and times, the most recently active first", async () => {
    const { org, laptop, samId, samDesk, samPhone } = await withSam();
    at(3 * MINUTE);
    expect(await live(samDesk)).toBe(true); // the desk's request moves its last activity
    const res = await callApp<{ data: TMemberSession[] }>(memberSessionsRoute, { as: laptop, params: { userId: samId } });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual([
      {
        id: samDesk.sessionId,
        current: false,
        device: "Chrome on Linux",
        clientAddress: null,
        signedInAt: new Date(T0 + 10 * SECOND).toISOString(),
        lastActiveAt: new Date(T0 + 3 * MINUTE).toISOString(),
      },
      {
        id: samPhone.sessionId,
        current: false,
        device: "Safari on iPhone",
        clientAddress: null,
        signedInAt: new Date(T0 + 10 * SECOND).toISOString(),
        lastActiveAt: new Date(T0 + 10 * SECOND).toISOString(),
      },
    ]);
    // The owner's own: the session asking is marked.
    const own = await callApp<{ data: TMemberSession[] }>(memberSessionsRoute, { as: laptop, params: { userId: org.userId } });
    expect(own.body.data.map((s) => [s.id, s.current])).toEqual([
      [laptop.sessionId, true],
      [(await sessionRows(org.userId)).find((id) => id !== laptop.sessionId), false],
    ]);
    // 404 for another organisation's member, 403 for anyone but the owner.
    const elsewhere = await createTestOrg(t.db, "Elsewhere");
    const stranger = await createTestMember(t.db, elsewhere);
    expect(await callApp(memberSessionsRoute, { as: laptop, params: { userId: stranger.user.id } })).toEqual({
      status: 404,
      body: { error: "Member not found" },
    });
    expect((await callApp(memberSessionsRoute, { as: samDesk, params: { userId: org.userId } })).status).toBe(403);
  });

  it("ends every session of theirs, not the owner's; recorded once, with how many", async () => {
    const { laptop, samId, samDesk, samPhone } = await withSam();
    const res = await callApp(endMemberRoute, { as: laptop, params: { userId: samId } });
    expect(res).toEqual({ status: 200, body: { data: { ended: 2 } } });
    expect([await live(samDesk), await live(samPhone), await live(laptop)]).toEqual([false, false, true]);
    const events = await eventsOf(samId, "member.sessions_ended");
    expect(events).toHaveLength(1);
    expect(events[0]!.actorUserId).toBe(laptop.userId);
    expect(describeActivity(events[0]!, activityNames(new Map([[samId, { name: "Sam", email: SAM.email }]])))).toBe(
      "Signed Sam (sam@example.com) out everywhere (2 sessions)",
    );
    // Their password still works.
    expect(await authorizeCredentials(t.db, SAM, { clientAddress: null })).not.toBeNull();
    expect(await callApp(endMemberRoute, { as: laptop, params: { userId: samId } })).toEqual({ status: 200, body: { data: { ended: 1 } } });
  });

  it("with nothing to end writes nothing; refuses the owner themselves (409), a non-member (404) and anyone but the owner (403)", async () => {
    const { org, laptop, samId, samDesk } = await withSam();
    await callApp(endMemberRoute, { as: laptop, params: { userId: samId } });
    expect(await callApp(endMemberRoute, { as: laptop, params: { userId: samId } })).toEqual({ status: 200, body: { data: { ended: 0 } } });
    expect(await eventsOf(samId, "member.sessions_ended")).toHaveLength(1);
    expect(await callApp(endMemberRoute, { as: laptop, params: { userId: org.userId } })).toEqual({
      status: 409,
      body: { error: "Sign out your own sessions on Your account" },
    });
    const elsewhere = await createTestOrg(t.db, "Elsewhere");
    const stranger = await createTestMember(t.db, elsewhere);
    expect(await callApp(endMemberRoute, { as: laptop, params: { userId: stranger.user.id } })).toEqual({ status: 404, body: { error: "Member not found" } });
    const samAgain = await signInSam(CHROME_LINUX);
    const refused = await callApp(endMemberRoute, { as: samAgain, params: { userId: org.userId } });
    expect(refused.status).toBe(403);
    expect([await live(laptop), await live(samAgain), await live(samDesk)]).toEqual([true, true, false]);
  });
});

describe("when a session is over", () => {
  it("signing out ends it on the server: a copy of its cookie no longer works", async () => {
    const { laptop, phone } = await setup();
    await endSignedOutSession(t.db, laptop.sessionId);
    expect([await live(laptop), await live(phone)]).toEqual([false, true]);
  });

  it("a session from before sessions had rows (no id) is over", async () => {
    const { laptop } = await setup();
    expect(await live({ ...laptop, sessionId: "" })).toBe(false);
  });

  it("a week without a request ends it; a request within the week keeps it; activity is written at most once a minute", async () => {
    const { laptop, phone } = await setup();
    const seen = async (id: string) =>
      (await t.db.select({ at: memberSessions.lastSeenAt }).from(memberSessions).where(eq(memberSessions.id, id)))[0]!.at.getTime();
    at(30 * SECOND);
    expect(await live(laptop)).toBe(true);
    expect(await seen(laptop.sessionId)).toBe(T0); // under a minute: not written
    at(6 * DAY);
    expect(await live(laptop)).toBe(true);
    expect(await seen(laptop.sessionId)).toBe(T0 + 6 * DAY);
    at(7 * DAY + 10 * SECOND);
    expect(await live(phone)).toBe(false); // idle since T0 + 10 s: a week and a moment
    expect(await live(laptop)).toBe(true); // active a day ago
    expect((await list(laptop)).body.data.map((s) => s.id)).toEqual([laptop.sessionId]);
  });

  it("a new password ends every session of the member (their rows go)", async () => {
    const { org, laptop, phone } = await setup();
    const actor = await loadSessionActor(t.db, laptop);
    await changeOwnPassword(t.db, actor!, { currentPassword: owner.password, newPassword: "a brand new password" });
    expect(await sessionRows(org.userId)).toEqual([]);
    expect([await live(laptop), await live(phone)]).toEqual([false, false]);
  });

  it("removing the member ends their sessions (the rows go with the membership)", async () => {
    const { laptop } = await setup();
    const samId = await addSam(laptop);
    const sam = await signInSam(CHROME_LINUX);
    await removeMember(t.db, (await loadSessionActor(t.db, laptop))!, { userId: samId });
    expect(await sessionRows(sam.userId)).toEqual([]);
    expect(await live(sam)).toBe(false);
  });

  it("the prune job deletes the rows of sessions idle for a week, and only those", async () => {
    const { org, laptop, phone } = await setup();
    at(3 * DAY);
    await live(laptop);
    const job = memberSessionJobs().pruneIdle;
    const done = await runDueItem(t.db, job, { at: new Date(T0 + 7 * DAY + 10 * SECOND), skip: [] });
    expect(done?.item.ids).toEqual([phone.sessionId]);
    expect(await runDueItem(t.db, job, { at: new Date(T0 + 7 * DAY + 10 * SECOND), skip: [] })).toBeUndefined();
    expect(await sessionRows(org.userId)).toEqual([laptop.sessionId]);
  });
});

describe("describeDevice", () => {
  it("names the browsers and systems people sign in with", () => {
    const cases: [string | null, string][] = [
      [FIREFOX_WINDOWS, "Firefox on Windows"],
      [SAFARI_IPHONE, "Safari on iPhone"],
      [CHROME_LINUX, "Chrome on Linux"],
      ["Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15", "Safari on macOS"],
      ["Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0", "Edge on Windows"],
      [
        "Mozilla/5.0 (Linux; Android 14; SM-S918B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/26.0 Chrome/122.0.0.0 Mobile Safari/537.36",
        "Samsung Internet on Android",
      ],
      ["Mozilla/5.0 (iPad; CPU OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/131.0.0.0 Mobile/15E148 Safari/604.1", "Chrome on iPad"],
      ["Mozilla/5.0 (X11; CrOS x86_64 14541.0.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36", "Chrome on ChromeOS"],
      ["Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/131.0.0.0 Safari/537.36", "Headless Chrome on Linux"],
      ["curl/8.5.0", "An unknown browser"],
      ["Mozilla/5.0 (Windows NT 10.0) Something/1.0", "A browser on Windows"],
      [null, "An unknown browser"],
    ];
    expect(cases.map(([ua]) => describeDevice(ua))).toEqual(cases.map(([, name]) => name));
  });
});
