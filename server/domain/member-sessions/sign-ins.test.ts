/**
 * Sign-ins beyond the session they start: one from an address the member has not used in 30 days mails them; a
 * failed one is recorded and shown to the member (Account) and in Activity.
 */
import { eq } from "drizzle-orm";
import { describe, expect, it, vi } from "vitest";
import { GET as failedRoute } from "@/app/api/app/me/failed-sign-ins/route";
import { auditEvents, mailMessages } from "@/server/db/schema";
import { authorizeCredentials } from "@/server/auth/authorize-credentials";
import { loadSessionActor } from "@/server/domain/access/load-session-actor";
import { describeActivity } from "@/server/domain/activity/describe-activity";
import { callApp } from "@/server/test/app-http";
import { addMember } from "@/server/domain/organisation/add-member";
import { useTestDb } from "@/server/test/db";
import { startSmtpSink, type TSmtpSink } from "@/server/domain/mail/test-support/smtp-sink";
import { createMailTransport } from "@/server/domain/mail/transport";
import type { TMyFailedSignIns } from "./schemas";
import {
  activityNames,
  at,
  CHROME_LINUX,
  createOrganisationWithOwner,
  DAY,
  FIREFOX_WINDOWS,
  MINUTE,
  owner,
  SAFARI_IPHONE,
  SAM,
  sessionHelpers,
  T0,
  type TIdentity,
} from "@/server/test/member-sessions";

const t = useTestDb();
const { setup, addSam, signInSam, live, eventsOf } = sessionHelpers(t);

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
