/**
 * Passwords after first run (docs/decisions/passwords.md), through the app's routes and the real next-auth
 * callbacks on the test database:
 * - a member changes their own password with the current one: the new one signs in, the old one does not, and
 *   every session that signed in before is over (the JWT's credentials version is older than the user's);
 * - a wrong current password is 422 at `currentPassword`, writes nothing and counts as a failed sign-in, so a
 *   borrowed session cannot guess it: after the sign-in throttle's limit even the right one is 429;
 * - the owner makes a member a one-time link (201, shown once, only its hash stored): a reset for 24 hours (the
 *   current password works until it is used, then every session ends) or a new invitation for 7 days; a new
 *   link replaces the pending one; the owner's own (409), a member's request (403) and another organisation's
 *   or a removed member (404) are refused and write nothing;
 * - the operator's `reset-password` prints such a link for anyone, the owner included.
 */
import { and, eq, isNull } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import type { JWT } from "next-auth/jwt";
import { POST as changePasswordRoute } from "@/app/api/app/me/password/route";
import { POST as passwordLinkRoute } from "@/app/api/app/members/[userId]/password-link/route";
import { POST as acceptRoute } from "@/app/api/app/invites/[token]/accept/route";
import { authorizeCredentials, type TSignedInUser } from "@/server/auth/authorize-credentials";
import { getAuthOptions } from "@/server/auth/options";
import { MAX_FAILURES_PER_PAIR } from "@/server/auth/sign-in-throttle";
import { runAdmin } from "@/server/cli/run-admin";
import { auditEvents, invites, mailMessages, memberships, users } from "@/server/db/schema";
import { setClock } from "@/server/lib/clock";
import { sha256Hex } from "@/server/lib/crypto";
import { callApp } from "@/server/test/app-http";
import { viaBoundaryNoActor } from "@/server/test/boundary";
import { useTestDb } from "@/server/test/db";
import { callJson, callRoute } from "@/server/test/http";
import { POST as resetRoute } from "@/app/api/app/password-reset/route";
import { startSmtpSink, type TSmtpSink } from "@/server/domain/mail/test-support/smtp-sink";
import { createMailTransport } from "@/server/domain/mail/transport";
import { PASSWORD_RESET_RATE_LIMITER } from "@/server/http/steps/rate-limit";
import {
  EMAILED_RESET_TTL_MS,
  NO_MAIL_SERVER,
  RESEND_AFTER_MS,
  RESET_MAIL_RETRY_MS,
  requestPasswordReset,
  type TResetRequestDeps,
} from "./email-password-reset";
import { parseOrThrow } from "@/server/lib/parse";
import { createOrganisationWithOwner as createParsedOrganisation } from "./create-organisation";
import { getInvite } from "./accept-invite";
import { addMember } from "./add-member";
import { RESET_TTL_MS } from "./passwords";
import { SAME_PASSWORD, WRONG_PASSWORD } from "@/server/auth/own-password";
import { ZCreateOwner, ZRequestPasswordReset } from "./schemas";
import { ownerActor } from "@/server/test/actors";
import { createTestOrg } from "@/server/test/factories";
import { INVITE_TTL_MS } from "./add-member";

const t = useTestDb();
const createOrganisationWithOwner = viaBoundaryNoActor(ZCreateOwner, createParsedOrganisation);
const T0 = new Date("2030-03-01T09:00:00Z");
const FROM = { clientAddress: "203.0.113.7" };

async function ownerAndMember() {
  setClock(() => T0);
  const org = await createOrganisationWithOwner(t.db, { name: "Olga", email: "olga@example.com", password: "olga's first password", organisationName: "Acme" });
  const owner = { userId: org.userId, organisationId: org.organisationId };
  const [role] = await t.db.select({ roleId: memberships.roleId }).from(memberships).where(eq(memberships.userId, org.userId));
  const member = await addMember(t.db, ownerActor({ ...org, workspaceId: org.workspaceId }), {
    method: "password",
    name: "Sam",
    email: "sam@example.com",
    roleId: role!.roleId,
    password: "sam's first password",
  });
  return { owner, member: { userId: member.userId, organisationId: org.organisationId } };
}

const signIn = (email: string, password: string) => authorizeCredentials(t.db, { email, password }, FROM);

/** The session next-auth would keep after a sign-in, and whether it is still a session on a later request. */
async function sessionOf(user: TSignedInUser): Promise<JWT> {
  return (await getAuthOptions().callbacks!.jwt!({ token: {}, user } as never)) as JWT;
}
async function stillActive(token: JWT): Promise<boolean> {
  return ((await getAuthOptions().callbacks!.jwt!({ token } as never)) as JWT).active === true;
}

const userRow = async (id: string) => (await t.db.select().from(users).where(eq(users.id, id)))[0]!;
const auditActions = async (subjectId: string) =>
  (await t.db.select({ action: auditEvents.action }).from(auditEvents).where(eq(auditEvents.subjectId, subjectId))).map((r) => r.action);

describe("changing one's own password", () => {
  it("the new password signs in, the old one does not, and sessions from before are over", async () => {
    const { owner } = await ownerAndMember();
    const before = await sessionOf((await signIn("olga@example.com", "olga's first password"))!);
    expect(await stillActive(before)).toBe(true);

    const res = await callApp(changePasswordRoute, { as: owner, body: { currentPassword: "olga's first password", newPassword: "olga's second password" } });
    expect(res).toEqual({ status: 200, body: { data: { changed: true } } });

    expect(await stillActive(before)).toBe(false);
    expect(await signIn("olga@example.com", "olga's first password")).toBeNull();
    const again = await signIn("olga@example.com", "olga's second password");
    expect(again).toMatchObject({ id: owner.userId, credentialsVersion: 1 });
    expect(await stillActive(await sessionOf(again!))).toBe(true);
    expect(await auditActions(owner.userId)).toContain("member.password_changed");
  });

  it("a wrong current password is 422 at currentPassword and writes nothing; guessing is throttled like sign-in", async () => {
    const { owner } = await ownerAndMember();
    const hash = (await userRow(owner.userId)).passwordHash;
    const wrong = await callApp(changePasswordRoute, { as: owner, body: { currentPassword: "a guess at it", newPassword: "olga's second password" } });
    expect(wrong.status).toBe(422);
    expect(wrong.body).toMatchObject({ details: { currentPassword: [WRONG_PASSWORD] } });
    expect(await userRow(owner.userId)).toMatchObject({ passwordHash: hash, credentialsVersion: 0 });
    expect(await auditActions(owner.userId)).not.toContain("member.password_changed");

    for (let i = 1; i < MAX_FAILURES_PER_PAIR; i++) {
      expect((await callApp(changePasswordRoute, { as: owner, body: { currentPassword: `guess ${i}`, newPassword: "olga's second password" } })).status).toBe(
        422,
      );
    }
    // The limit reached: the right password is refused too, with the wait.
    const throttled = await callApp(changePasswordRoute, {
      as: owner,
      body: { currentPassword: "olga's first password", newPassword: "olga's second password" },
    });
    expect(throttled.status).toBe(429);
    expect(throttled.body.error).toBe("Too many attempts, try again in 15 minutes.");
    expect((await userRow(owner.userId)).credentialsVersion).toBe(0);
  });

  it("the new password must follow the rule and differ from the current one (422 at newPassword)", async () => {
    const { owner } = await ownerAndMember();
    const short = await callApp(changePasswordRoute, { as: owner, body: { currentPassword: "olga's first password", newPassword: "short" } });
    expect(short).toMatchObject({ status: 422, body: { details: { newPassword: ["Use at least 10 characters"] } } });
    const same = await callApp(changePasswordRoute, { as: owner, body: { currentPassword: "olga's first password", newPassword: "olga's first password" } });
    expect(same).toMatchObject({ status: 422, body: { details: { newPassword: [SAME_PASSWORD] } } });
    expect((await userRow(owner.userId)).credentialsVersion).toBe(0);
    expect((await callApp(changePasswordRoute, { as: null, body: { currentPassword: "x", newPassword: "long enough password" } })).status).toBe(401);
  });
});

describe("the owner's one-time link for a member", () => {
  it("a reset: 24 hours, hashed at rest; the old password works until it is used, then every session ends", async () => {
    const { owner, member } = await ownerAndMember();
    const memberSession = await sessionOf((await signIn("sam@example.com", "sam's first password"))!);
    const issued = await callApp<{ data: { purpose: string; path: string; expiresAt: string } }>(passwordLinkRoute, {
      as: owner,
      params: { userId: member.userId },
    });
    expect(issued.status).toBe(201);
    expect(issued.body.data).toMatchObject({ purpose: "reset", expiresAt: new Date(T0.getTime() + RESET_TTL_MS).toISOString() });
    const token = issued.body.data.path.replace("/invite/", "");
    const [stored] = await t.db.select().from(invites).where(eq(invites.userId, member.userId));
    expect(stored).toMatchObject({ tokenHash: sha256Hex(token), purpose: "reset" });
    expect(JSON.stringify(await t.db.select().from(auditEvents))).not.toContain(token);
    expect(await signIn("sam@example.com", "sam's first password")).not.toBeNull();
    expect(await stillActive(memberSession)).toBe(true);
    expect(await getInvite(t.db, token)).toMatchObject({ email: "sam@example.com", purpose: "reset" });

    const used = await callJson(acceptRoute, { params: { token }, body: { password: "sam's new password", name: "Not Sam" } });
    expect(used).toMatchObject({ status: 200, body: { data: { userId: member.userId, purpose: "reset" } } });
    expect(await stillActive(memberSession)).toBe(false);
    expect(await signIn("sam@example.com", "sam's first password")).toBeNull();
    expect(await signIn("sam@example.com", "sam's new password")).toMatchObject({ id: member.userId });
    expect((await userRow(member.userId)).name).toBe("Sam"); // a reset sets the password only
    expect((await callJson(acceptRoute, { params: { token }, body: { password: "sam's third password" } })).status).toBe(404);
    expect(await auditActions(member.userId)).toEqual(expect.arrayContaining(["member.password_link_issued", "member.password_reset"]));
  });

  it("a new link replaces the pending one, and a reset link dies after 24 hours", async () => {
    const { owner, member } = await ownerAndMember();
    const first = await callApp<{ data: { path: string } }>(passwordLinkRoute, { as: owner, params: { userId: member.userId } });
    const second = await callApp<{ data: { path: string } }>(passwordLinkRoute, { as: owner, params: { userId: member.userId } });
    const tokenOf = (r: { body: { data: { path: string } } }) => r.body.data.path.replace("/invite/", "");
    expect((await callJson(acceptRoute, { params: { token: tokenOf(first) }, body: { password: "sam's new password" } })).status).toBe(404);
    setClock(() => new Date(T0.getTime() + RESET_TTL_MS + 1));
    expect((await callJson(acceptRoute, { params: { token: tokenOf(second) }, body: { password: "sam's new password" } })).status).toBe(404);
    expect(await signIn("sam@example.com", "sam's first password")).not.toBeNull();
  });

  it("for a member who never set a password: a new invitation for 7 days, in place of the old one", async () => {
    const { owner } = await ownerAndMember();
    const [role] = await t.db.select({ roleId: memberships.roleId }).from(memberships).where(eq(memberships.userId, owner.userId));
    const invited = await addMember(t.db, ownerActor({ ...owner, workspaceId: "" }), {
      method: "invite",
      name: "Ivy",
      email: "ivy@example.com",
      roleId: role!.roleId,
    });
    const issued = await callApp<{ data: { purpose: string; expiresAt: string } }>(passwordLinkRoute, { as: owner, params: { userId: invited.userId } });
    expect(issued.body.data).toMatchObject({ purpose: "invite", expiresAt: new Date(T0.getTime() + INVITE_TTL_MS).toISOString() });
    expect(
      await t.db
        .select()
        .from(invites)
        .where(and(eq(invites.userId, invited.userId))),
    ).toHaveLength(1);
    const oldToken = invited.invite!.path.replace("/invite/", "");
    expect((await callJson(acceptRoute, { params: { token: oldToken }, body: { password: "ivy's password" } })).status).toBe(404);
  });

  it("is refused for the owner's own password (409), to a member (403), and for someone not a member here (404), writing nothing", async () => {
    const { owner, member } = await ownerAndMember();
    const own = await callApp(passwordLinkRoute, { as: owner, params: { userId: owner.userId } });
    expect(own).toMatchObject({ status: 409, body: { error: "Change your own password on your Account page" } });
    expect((await callApp(passwordLinkRoute, { as: member, params: { userId: owner.userId } })).status).toBe(403);
    const other = await createTestOrg(t.db, "Other");
    expect((await callApp(passwordLinkRoute, { as: owner, params: { userId: other.userId } })).status).toBe(404);
    await t.db.update(users).set({ deletedAt: T0 }).where(eq(users.id, member.userId));
    expect((await callApp(passwordLinkRoute, { as: owner, params: { userId: member.userId } })).status).toBe(404);
    expect(await t.db.select().from(invites)).toEqual([]);
    expect((await t.db.select().from(auditEvents).where(eq(auditEvents.action, "member.password_link_issued"))).length).toBe(0);
  });
});

describe("forgot your password: a reset link by mail", () => {
  // The route parses before the domain runs (server/test/boundary.ts); the transport is the test's SMTP server.
  const requestReset = (db: typeof t.db, input: { email: string }, deps: TResetRequestDeps) =>
    requestPasswordReset(db, parseOrThrow(ZRequestPasswordReset, input, "input"), deps);

  /** Asks for a link through a real SMTP server on loopback, and waits for the mail it sends (if any). */
  async function ask(sink: TSmtpSink, email: string, wait?: (ms: number) => Promise<void>) {
    let sending: Promise<void> | undefined;
    const transport = createMailTransport({ smtpUrl: sink.url, from: "Foliosign <no-reply@example.com>" });
    const answer = await requestReset(t.db, { email }, { transport, sending: (p) => (sending = p), wait });
    await sending;
    return answer;
  }

  it("mails a member a link that works once, for an hour; an unknown address gets the same answer and no mail", async () => {
    const { member } = await ownerAndMember();
    const sink = await startSmtpSink();
    try {
      expect(await ask(sink, "Sam@Example.com")).toEqual({ requested: true });
      expect(await ask(sink, "nobody@example.com")).toEqual({ requested: true });
      expect(sink.received.map((m) => [m.to, m.subject])).toEqual([[["sam@example.com"], "Set a new Foliosign password"]]);
      const url = sink.received[0]!.text.match(/http:\/\/localhost:3000\/invite\/[A-Za-z0-9_-]+/)![0];
      const token = url.split("/invite/")[1]!;
      expect(
        await t.db
          .select({ expiresAt: invites.expiresAt })
          .from(invites)
          .where(eq(invites.tokenHash, sha256Hex(token))),
      ).toEqual([{ expiresAt: new Date(T0.getTime() + EMAILED_RESET_TTL_MS) }]);
      // Never in the outbox (members read it on the Mail page) and never in the audit trail.
      expect(await t.db.select().from(mailMessages)).toEqual([]);
      expect(JSON.stringify(await t.db.select().from(auditEvents))).not.toContain(token);

      setClock(() => new Date(T0.getTime() + EMAILED_RESET_TTL_MS - 1000));
      expect((await callJson(acceptRoute, { params: { token }, body: { password: "sam's new password" } })).status).toBe(200);
      expect(await signIn("sam@example.com", "sam's new password")).toMatchObject({ id: member.userId });
    } finally {
      await sink.close();
    }
  });

  it("sends at most one link every five minutes, and none to a removed member or one who never set a password", async () => {
    const { owner, member } = await ownerAndMember();
    const sink = await startSmtpSink();
    try {
      await ask(sink, "sam@example.com");
      await ask(sink, "sam@example.com");
      expect(sink.received).toHaveLength(1);
      setClock(() => new Date(T0.getTime() + RESEND_AFTER_MS + 1));
      await ask(sink, "sam@example.com");
      expect(sink.received).toHaveLength(2);
      expect(await t.db.select().from(invites).where(isNull(invites.usedAt))).toHaveLength(1); // the newer replaced the older

      const [role] = await t.db.select({ roleId: memberships.roleId }).from(memberships).where(eq(memberships.userId, owner.userId));
      await addMember(t.db, ownerActor({ ...owner, workspaceId: "" }), { method: "invite", name: "Ivy", email: "ivy@example.com", roleId: role!.roleId });
      await t.db.update(users).set({ deletedAt: T0 }).where(eq(users.id, member.userId));
      setClock(() => new Date(T0.getTime() + 2 * RESEND_AFTER_MS + 2));
      await ask(sink, "ivy@example.com");
      await ask(sink, "sam@example.com");
      expect(sink.received).toHaveLength(2);
    } finally {
      await sink.close();
    }
  });

  it("retries a mail the server turns away for now (4xx), after 5 s and 30 s; the link it finally carries works", async () => {
    const { member } = await ownerAndMember();
    const sink = await startSmtpSink();
    const waits: number[] = [];
    let refusals = 2;
    sink.refuseRcpt = () => (refusals-- > 0 ? 451 : null);
    try {
      await ask(sink, "sam@example.com", async (ms) => void waits.push(ms));
      expect(waits).toEqual([5_000, 30_000]);
      expect(sink.received).toHaveLength(1);
      const token = sink.received[0]!.text.match(/\/invite\/([A-Za-z0-9_-]+)/)![1]!;
      expect((await callJson(acceptRoute, { params: { token }, body: { password: "sam's new password" } })).status).toBe(200);
      expect(await signIn("sam@example.com", "sam's new password")).toMatchObject({ id: member.userId });
    } finally {
      await sink.close();
    }
  });

  it("withdraws the link of a mail that cannot be sent (5xx at once; 4xx after every retry), so asking again sends a new one", async () => {
    await ownerAndMember();
    const sink = await startSmtpSink();
    const waits: number[] = [];
    const wait = async (ms: number) => void waits.push(ms);
    try {
      sink.refuseRcpt = () => 550;
      await ask(sink, "sam@example.com", wait);
      expect(waits).toEqual([]); // a permanent refusal is not retried
      expect(await t.db.select().from(invites)).toEqual([]);

      sink.refuseRcpt = () => 451;
      await ask(sink, "sam@example.com", wait); // within five minutes of the first: not held back, nothing was sent
      expect(waits).toEqual([...RESET_MAIL_RETRY_MS]);
      expect(await t.db.select().from(invites)).toEqual([]);
      expect(sink.received).toEqual([]);

      sink.refuseRcpt = () => null;
      await ask(sink, "sam@example.com", wait);
      expect(sink.received).toHaveLength(1);
      expect(await t.db.select().from(invites).where(isNull(invites.usedAt))).toHaveLength(1);
      // Each link issued is in the audit trail, sent or not.
      expect((await t.db.select().from(auditEvents).where(eq(auditEvents.action, "member.password_link_issued"))).length).toBe(3);
    } finally {
      await sink.close();
    }
  });

  it("without a mail server: 409 through the route, nothing written; a malformed address is 422 at email; counted per address (429)", async () => {
    await ownerAndMember();
    const refused = await callJson(resetRoute, { body: { email: "sam@example.com" } });
    expect(refused).toMatchObject({ status: 409, body: { error: NO_MAIL_SERVER } });
    expect(await t.db.select().from(invites)).toEqual([]);
    expect(await callJson(resetRoute, { body: { email: "not an address" } })).toMatchObject({
      status: 422,
      body: { details: { email: ["Enter a valid email address"] } },
    });
    for (let i = 2; i < PASSWORD_RESET_RATE_LIMITER.limit(); i++) await callJson(resetRoute, { body: { email: "sam@example.com" } });
    const limited = await callRoute(resetRoute, { body: { email: "sam@example.com" } });
    expect(limited.status).toBe(429);
    expect(limited.headers.get("retry-after")).toMatch(/^\d+$/);
    expect((await callJson(resetRoute, { body: { email: "sam@example.com" }, address: "198.51.100.9" })).status).toBe(409);
  });
});

describe("npm run admin -- reset-password", () => {
  it("prints the owner a one-time link on stdout that sets a new password", async () => {
    const { owner } = await ownerAndMember();
    const out: string[] = [];
    const err: string[] = [];
    const code = await runAdmin(["reset-password", "--email", "Olga@Example.com"], async () => t.db, { out: (l) => out.push(l), err: (l) => err.push(l) });
    expect(code).toBe(0);
    expect(out).toHaveLength(1);
    expect(out[0]).toMatch(/^http:\/\/localhost:3000\/invite\/[A-Za-z0-9_-]{20,}$/);
    expect(err.join("\n")).toContain(new Date(T0.getTime() + RESET_TTL_MS).toISOString());
    const token = out[0]!.split("/invite/")[1]!;
    expect((await callJson(acceptRoute, { params: { token }, body: { password: "olga's way back in" } })).status).toBe(200);
    expect(await signIn("olga@example.com", "olga's way back in")).toMatchObject({ id: owner.userId });
    const unknown = await runAdmin(["reset-password", "--email", "nobody@example.com"], async () => t.db, { out: () => {}, err: (l) => err.push(l) });
    expect(unknown).toBe(2);
    expect(err.at(-1)).toContain("No member with the email nobody@example.com");
  });
});
