/**
 * When a session is over without anyone ending it: signing out, a new password, a removed membership, a week
 * without a request, or 30 days after its sign-in however much it is used; the prune job deletes idle rows. And
 * the devices' names the lists show.
 */
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { memberSessions } from "@/server/db/schema";
import { changeOwnPassword } from "@/server/auth/own-password";
import { loadSessionActor } from "@/server/domain/access/load-session-actor";
import { removeMember } from "@/server/domain/organisation/remove-member";
import { runDueItem } from "@/server/lib/jobs";
import { useTestDb } from "@/server/test/db";
import { describeDevice } from "./describe-device";
import { memberSessionJobs } from "./jobs";
import { endSignedOutSession } from "./session-liveness";
import { at, CHROME_LINUX, DAY, FIREFOX_WINDOWS, owner, SAFARI_IPHONE, SECOND, sessionHelpers, T0 } from "@/server/test/member-sessions";

const t = useTestDb();
const { setup, addSam, signInSam, live, list, sessionRows } = sessionHelpers(t);

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

  it("in daily use it lives 30 days from its sign-in, not a moment more; the lists leave it out then", async () => {
    const { laptop, phone } = await setup();
    for (let day = 1; day < 30; day++) {
      at(day * DAY);
      expect([await live(laptop), await live(phone)]).toEqual([true, true]);
    }
    at(30 * DAY + 5 * SECOND); // the laptop signed in 30 days and 5 s ago, the phone 5 s less than 30 days ago
    expect([await live(laptop), await live(phone)]).toEqual([false, true]);
    expect((await list(phone)).body.data.map((s) => s.id)).toEqual([phone.sessionId]);
    at(30 * DAY + 10 * SECOND);
    expect(await live(phone)).toBe(false);
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
