/**
 * A member's signed-in sessions (Account → Where you're signed in): every sign-in starts one (its row, and a
 * `member.signed_in` event with the device and address); the member lists theirs, this one first; signs out one
 * of the others or all of them, and such a session's next request is signed out; the owner sees a member's and
 * signs them out everywhere. Sign-ins that fail or come from a new address: sign-ins.test.ts; when a session is
 * over by itself: session-lifetime.test.ts.
 */
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { GET as listRoute } from "@/app/api/app/me/sessions/route";
import { POST as endRoute } from "@/app/api/app/me/sessions/[sessionId]/sign-out/route";
import { POST as endOthersRoute } from "@/app/api/app/me/sessions/sign-out-others/route";
import { POST as endMemberRoute } from "@/app/api/app/members/[userId]/sessions/sign-out/route";
import { POST as endMemberSessionRoute } from "@/app/api/app/members/[userId]/sessions/[sessionId]/sign-out/route";
import { GET as memberSessionsRoute } from "@/app/api/app/members/[userId]/sessions/route";
import { memberSessions } from "@/server/db/schema";
import { authorizeCredentials } from "@/server/auth/authorize-credentials";
import { describeActivity } from "@/server/domain/activity/describe-activity";
import { callApp } from "@/server/test/app-http";
import { createTestMember } from "@/server/test/actors";
import { useTestDb } from "@/server/test/db";
import { createTestOrg } from "@/server/test/factories";
import type { TMemberSession } from "./schemas";
import { activityNames, at, CHROME_LINUX, MINUTE, owner, SAFARI_IPHONE, SAM, SECOND, sessionHelpers, T0 } from "@/server/test/member-sessions";

const t = useTestDb();
const { signIn, setup, addSam, signInSam, live, list, sessionRows, eventsOf } = sessionHelpers(t);

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

describe("the owner signs a member out of one session or everywhere", () => {
  async function withSam() {
    const { org, laptop, phone } = await setup();
    const samId = await addSam(laptop);
    const samDesk = await signInSam(CHROME_LINUX);
    const samPhone = await signInSam(SAFARI_IPHONE);
    return { org, laptop, phone, samId, samDesk, samPhone };
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

  it("ends one session of theirs: its next request is signed out, their other keeps working; recorded with the device", async () => {
    const { laptop, samId, samDesk, samPhone } = await withSam();
    const res = await callApp(endMemberSessionRoute, { as: laptop, params: { userId: samId, sessionId: samPhone.sessionId } });
    expect(res).toEqual({ status: 200, body: { data: { id: samPhone.sessionId, ended: true } } });
    expect([await live(samPhone), await live(samDesk), await live(laptop)]).toEqual([false, true, true]);
    const events = await eventsOf(samId, "member.session_ended_by_owner");
    expect(events.map((e) => [e.actorUserId, e.data])).toEqual([
      [laptop.userId, { sessionId: samPhone.sessionId, device: "Safari on iPhone", signedInAt: new Date(T0 + 10 * SECOND).toISOString() }],
    ]);
    expect(describeActivity(events[0]!, activityNames(new Map([[samId, { name: "Sam", email: SAM.email }]])))).toBe(
      "Signed Sam (sam@example.com) out of their session on Safari on iPhone",
    );
  });

  it("one session: refuses one ended or not theirs (404), the owner's own (409), a non-member (404) and anyone but the owner (403), writing nothing", async () => {
    const { org, laptop, phone, samId, samDesk, samPhone } = await withSam();
    const endOne = (as: typeof laptop, userId: string, sessionId: string) => callApp(endMemberSessionRoute, { as, params: { userId, sessionId } });
    await endOne(laptop, samId, samPhone.sessionId);
    expect(await endOne(laptop, samId, samPhone.sessionId)).toEqual({ status: 404, body: { error: "Session not found" } });
    // The owner's phone named as Sam's: not Sam's, so not found — and not ended.
    expect(await endOne(laptop, samId, phone.sessionId)).toEqual({ status: 404, body: { error: "Session not found" } });
    expect(await endOne(laptop, org.userId, phone.sessionId)).toEqual({ status: 409, body: { error: "Sign out your own sessions on Your account" } });
    const elsewhere = await createTestOrg(t.db, "Elsewhere");
    const stranger = await createTestMember(t.db, elsewhere);
    expect(await endOne(laptop, stranger.user.id, samDesk.sessionId)).toEqual({ status: 404, body: { error: "Member not found" } });
    expect((await endOne(samDesk, org.userId, phone.sessionId)).status).toBe(403);
    expect([await live(laptop), await live(phone), await live(samDesk)]).toEqual([true, true, true]);
    expect(await eventsOf(samId, "member.session_ended_by_owner")).toHaveLength(1);
    expect(await eventsOf(org.userId, "member.session_ended_by_owner")).toHaveLength(0);
  });
});
