/**
 * Signer authentication on the signing page (issue 21; docs/decisions/signer-authentication.md), through the real
 * route handlers on a real database (PGlite, and PostgreSQL with DATABASE_URL): the check (view, 403 on every
 * other step without the signer cookie, the cookie bound to the session), email codes' expiry, single use and
 * hourly limit on an injected clock, the codes never echoed (answers, audit trail, webhook outbox, mail other
 * than the code mail, logs), the lock under 20 parallel wrong codes, and unlocking. What the API takes and shows:
 * server/domain/packages/recipient-authentication.test.ts.
 */
import { and, eq } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { PATCH as updateRecipientRoute } from "@/app/api/v1/packages/[packageId]/recipients/[sessionId]/route";
import { GET as getPackageRoute } from "@/app/api/v1/packages/[packageId]/route";
import { GET as auditRoute } from "@/app/api/v1/packages/[packageId]/audit-events/route";
import { POST as voidRoute } from "@/app/api/v1/packages/[packageId]/void/route";
import { POST as unlockRoute } from "@/app/api/app/packages/[packageId]/recipients/[sessionId]/authentication/unlock/route";
import { GET as viewRoute } from "@/app/api/app/sign/[token]/route";
import { POST as checkRoute } from "@/app/api/app/sign/[token]/authentication/route";
import { POST as emailCodeRoute } from "@/app/api/app/sign/[token]/authentication/email-code/route";
import { POST as openRoute } from "@/app/api/app/sign/[token]/open/route";
import { POST as consentRoute } from "@/app/api/app/sign/[token]/consent/route";
import { POST as finishRoute } from "@/app/api/app/sign/[token]/finish/route";
import { POST as declineRoute } from "@/app/api/app/sign/[token]/decline/route";
import { GET as downloadRoute } from "@/app/api/app/sign/[token]/download/route";
import { PUT as fieldRoute } from "@/app/api/app/sign/[token]/fields/[fieldId]/route";
import { GET as getImageRoute } from "@/app/api/app/sign/[token]/fields/[fieldId]/image/route";
import { GET as documentRoute } from "@/app/api/app/sign/[token]/documents/[documentId]/file/route";
import { auditEvents, mailMessages, recipientAuthCodes, recipientSessions, webhookEvents } from "@/server/db/schema";
import { verifyAuditChain } from "@/server/domain/audit/verify-audit-chain";
import { mailDetailView } from "@/server/domain/mail/mail-view";
import { redactSigningLinks } from "@/server/domain/mail/redact-signing-links";
import { buildSigningCodeMail } from "@/server/domain/mail/templates/build-signing-code-mail";
import { setClock } from "@/server/lib/clock";
import { sha256Hex } from "@/server/lib/crypto";
import { callApp } from "@/server/test/app-http";
import { captureLog, type TCapturedLog } from "@/server/test/captured-log";
import { useTestDb } from "@/server/test/db";
import { callJson, callRoute } from "@/server/test/http";
import { ACCESS_CODE, sentSignerPackage, sessionRow, type TBody, type TPkg } from "@/server/test/signer-auth-package";

const t = useTestDb();
const T0 = new Date("2031-05-01T09:00:00Z");
let clock = T0;
const tick = (ms: number) => {
  clock = new Date(clock.getTime() + ms);
};
let log: TCapturedLog | undefined;

afterEach(() => {
  setClock(undefined);
  log?.restore();
  log = undefined;
});

const UA = "Mozilla/5.0 (signer test)";

async function sentPackage() {
  clock = T0;
  setClock(() => clock);
  return sentSignerPackage(t.db);
}

/** A signing link of a session: the raw token whose hash the session stores (as the invitation mail would carry). */
async function tokenFor(sessionId: string): Promise<string> {
  const token = `tok${sessionId.replace(/[^A-Za-z0-9]/g, "")}`.padEnd(43, "x").slice(0, 43);
  await t.db
    .update(recipientSessions)
    .set({ tokenHash: sha256Hex(token), tokenExpiresAt: null })
    .where(eq(recipientSessions.id, sessionId));
  return token;
}

const browser = (cookie?: string) => ({ "user-agent": UA, ...(cookie ? { cookie } : {}) });
const view = (token: string, cookie?: string) => callJson<TBody>(viewRoute, { params: { token }, headers: browser(cookie) });
const check = (token: string, code: string, cookie?: string) => callRoute(checkRoute, { params: { token }, body: { code }, headers: browser(cookie) });
const sendCode = (token: string) => callJson<TBody<{ sentAt: string; to: string }>>(emailCodeRoute, { params: { token }, headers: browser() });

async function passWith(token: string, code: string): Promise<string> {
  const res = await check(token, code);
  expect(res.status).toBe(200);
  expect(await res.json()).toEqual({ data: { passed: true } });
  return res.headers.get("set-cookie")!.split(";")[0]!;
}

async function lastCodeMail(sessionId: string) {
  const rows = await t.db
    .select()
    .from(mailMessages)
    .where(and(eq(mailMessages.sessionId, sessionId), eq(mailMessages.kind, "SIGNING_CODE")));
  const row = rows.sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || a.id.localeCompare(b.id)).at(-1)!;
  return { row, code: /Your signing code: (\d{6})/.exec(row.text)![1]! };
}

const session = (id: string) => sessionRow(t.db, id);

describe("the signing page's check", () => {
  it("access code: only the title before the check, 403 on every other step, the cookie bound to this session", async () => {
    const s = await sentPackage();
    const token = await tokenFor(s.tina.id);
    const before = await view(token);
    expect(before.status).toBe(200);
    expect(before.body.data).toEqual({
      state: "AUTHENTICATION_REQUIRED",
      packageTitle: "Lease 4B",
      authentication: { method: "ACCESS_CODE", locked: false, attemptsLeft: 5, codeSentAt: null, codeSentTo: null },
    });

    const fieldId = "fld_unknown";
    const steps = [
      () => callRoute(openRoute, { params: { token }, headers: browser() }),
      () => callRoute(consentRoute, { params: { token }, headers: browser() }),
      () => callRoute(fieldRoute, { params: { token, fieldId }, body: { value: "x" }, headers: browser() }),
      () => callRoute(getImageRoute, { params: { token, fieldId }, headers: browser() }),
      () => callRoute(documentRoute, { params: { token, documentId: s.documentId }, headers: browser() }),
      () => callRoute(finishRoute, { params: { token }, headers: browser() }),
      () => callRoute(declineRoute, { params: { token }, body: { reason: "no" }, headers: browser() }),
      () => callRoute(downloadRoute, { params: { token }, headers: browser() }),
    ];
    for (const step of steps) {
      const res = await step();
      expect(res.status).toBe(403);
      expect(await res.json()).toEqual({ error: "Authentication required: enter your code first" });
    }

    const wrong = await check(token, "not-the-code");
    expect(wrong.status).toBe(422);
    expect(await wrong.json()).toEqual({ error: "Wrong code", details: { code: ["Wrong or expired code: 4 tries left"] } });
    expect((await view(token)).body.data).toMatchObject({ authentication: { attemptsLeft: 4 } });

    const right = await check(token, `  ${ACCESS_CODE}`);
    expect(right.status).toBe(200);
    const setCookie = right.headers.get("set-cookie")!;
    expect(setCookie).toMatch(new RegExp(`^foliosign_signer_${s.tina.id}=0\\.[0-9a-f]{64}; Path=/; HttpOnly; SameSite=Lax$`));
    const cookie = setCookie.split(";")[0]!;
    expect(JSON.stringify(await right.json())).not.toContain(ACCESS_CODE);

    const after = await view(token, cookie);
    expect(after.body.data).toMatchObject({ state: "OPEN", packageTitle: "Lease 4B" });
    expect((await callRoute(consentRoute, { params: { token }, headers: browser(cookie) })).status).toBe(200);
    expect((await session(s.tina.id)).authFailedAttempts).toBe(0);
    // Another browser (no cookie) is asked again; a forged or another session's cookie does not pass.
    expect((await view(token)).body.data).toMatchObject({ state: "AUTHENTICATION_REQUIRED" });
    const forged = `foliosign_signer_${s.tina.id}=0.${"0".repeat(64)}`;
    expect((await callRoute(consentRoute, { params: { token }, headers: browser(forged) })).status).toBe(403);
    const larsToken = await tokenFor(s.lars.id);
    expect((await view(larsToken, cookie)).body.data).toMatchObject({ state: "AUTHENTICATION_REQUIRED" });

    // A correction of the method bumps the generation: the old cookie stops working.
    const corrected = await callJson<TBody<TPkg>>(updateRecipientRoute, {
      key: s.key,
      params: { packageId: s.packageId, sessionId: s.tina.id },
      body: { authentication: { method: "ACCESS_CODE", accessCode: "new-code-77" } },
    });
    expect(corrected.status).toBe(200);
    expect((await view(token, cookie)).body.data).toMatchObject({ state: "AUTHENTICATION_REQUIRED" });
    expect((await check(token, ACCESS_CODE)).status).toBe(422);
    await passWith(token, "new-code-77");

    // The audit trail: failed, passed (with address and user agent), never a code; the chain holds.
    const trail = await t.db.select().from(auditEvents).where(eq(auditEvents.subjectId, s.packageId));
    const failed = trail.filter((e) => e.action === "recipient.authentication.failed");
    const passed = trail.filter((e) => e.action === "recipient.authentication.passed");
    expect(failed).toHaveLength(2);
    expect(passed).toHaveLength(2);
    expect(passed[0]!.clientAddress).toBe("127.0.0.1");
    expect(passed[0]!.data).toMatchObject({ sessionId: s.tina.id, email: "tina@example.com", method: "ACCESS_CODE", userAgent: UA });
    expect(failed[0]!.data).toMatchObject({ attempts: 1, attemptsLeft: 4, userAgent: UA });
    expect(JSON.stringify(trail)).not.toContain(ACCESS_CODE);
    expect(JSON.stringify(trail)).not.toContain("new-code-77");
    expect((await verifyAuditChain(t.db, "package", s.packageId)).ok).toBe(true);
    const listed = await callJson<TBody<{ auditEvents: { action: string }[] }>>(auditRoute, { key: s.key, params: { packageId: s.packageId } });
    expect(listed.body.data.auditEvents.map((e) => e.action)).toContain("recipient.authentication.passed");
  });

  it("email code: mailed once per request, valid 10 minutes, single use, 5 an hour; the code only in the code mail", async () => {
    log = captureLog("debug");
    const s = await sentPackage();
    const token = await tokenFor(s.lars.id);
    expect((await view(token)).body.data).toMatchObject({ authentication: { method: "EMAIL_CODE", codeSentAt: null, codeSentTo: "l…@example.com" } });
    const accessOnly = await callJson<TBody>(emailCodeRoute, { params: { token: await tokenFor(s.tina.id) } });
    expect(accessOnly.status).toBe(409);

    const sent = await sendCode(token);
    expect(sent.status).toBe(200);
    expect(sent.body.data).toEqual({ sentAt: T0.toISOString(), to: "l…@example.com" });
    expect((await view(token)).body.data).toMatchObject({ authentication: { codeSentAt: T0.toISOString() } });
    const first = await lastCodeMail(s.lars.id);
    expect(first.row.toEmail).toBe("lars@example.com");
    // A member reading the queued message does not see the code; the outbox (no SMTP) shows it whole.
    expect(JSON.stringify(mailDetailView(first.row))).not.toContain(first.code);
    expect(mailDetailView({ ...first.row, status: "KEPT" }).text).toContain(first.code);
    // The stored copy of a delivered message loses the code (as signing links), in both parts.
    const built = buildSigningCodeMail({ recipientName: "Lars", packageTitle: "Lease 4B", code: "042917", validMinutes: 10 });
    expect(built.text).toContain("Your signing code: 042917");
    expect(built.html).toContain("042917");
    expect(redactSigningLinks(built.text)).not.toContain("042917");
    expect(redactSigningLinks(built.html)).not.toContain("042917");
    // Stored as an HMAC only.
    const [stored] = await t.db.select().from(recipientAuthCodes).where(eq(recipientAuthCodes.sessionId, s.lars.id));
    expect(stored!.codeHash).toMatch(/^[0-9a-f]{64}$/);

    // Expired after 10 minutes (the injected clock).
    tick(10 * 60_000 + 1000);
    expect((await check(token, first.code)).status).toBe(422);

    // A fresh code passes once; the same code again (another browser) is refused.
    await sendCode(token);
    const second = await lastCodeMail(s.lars.id);
    const cookie = await passWith(token, second.code);
    expect((await view(token, cookie)).body.data).toMatchObject({ state: "OPEN" });
    const reuse = await check(token, second.code);
    expect(reuse.status).toBe(422);

    // 5 codes an hour: the 6th within the hour is 429 with Retry-After; an hour after the first it works again.
    for (let i = 0; i < 3; i++) expect((await sendCode(token)).status).toBe(200);
    const sixth = await sendCode(token);
    expect(sixth.status).toBe(429);
    expect(sixth.body.error).toBe("At most 5 codes an hour: try again in 50 minutes");
    expect(Number(sixth.headers.get("retry-after"))).toBe(50 * 60 - 1);
    tick(50 * 60_000);
    expect((await sendCode(token)).status).toBe(200);

    // Never in an answer, the audit trail, the webhook outbox, another mail, or the logs.
    const codes = (await t.db.select().from(mailMessages).where(eq(mailMessages.kind, "SIGNING_CODE"))).map(
      (m) => /Your signing code: (\d{6})/.exec(m.text)![1]!,
    );
    expect(codes).toHaveLength(6);
    const trail = JSON.stringify(await t.db.select().from(auditEvents).where(eq(auditEvents.subjectId, s.packageId)));
    const hooks = JSON.stringify(await t.db.select().from(webhookEvents));
    const otherMail = JSON.stringify((await t.db.select().from(mailMessages)).filter((m) => m.kind !== "SIGNING_CODE"));
    for (const code of codes) {
      for (const text of [trail, hooks, otherMail, log.lines.join(""), JSON.stringify(sent.body)]) expect(text).not.toContain(code);
    }
    const requested = (await t.db.select().from(auditEvents).where(eq(auditEvents.subjectId, s.packageId))).filter(
      (e) => e.action === "recipient.authentication.requested",
    );
    expect(requested).toHaveLength(6);
    expect(requested[0]!.data).toMatchObject({ sessionId: s.lars.id, to: "l…@example.com", userAgent: UA });
  });

  it("20 parallel wrong codes count 20 and lock the recipient; the right code is then refused until the sender unlocks", async () => {
    const s = await sentPackage();
    const token = await tokenFor(s.tina.id);
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => check(token, `wrong-${i}`)));
    const statuses = results.map((r) => r.status).sort();
    expect(statuses.filter((x) => x === 422)).toHaveLength(4);
    expect(statuses.filter((x) => x === 409)).toHaveLength(16);
    const row = await session(s.tina.id);
    expect(row.authFailedAttempts).toBe(20);
    expect(row.authLockedAt).not.toBeNull();
    const trail = await t.db.select().from(auditEvents).where(eq(auditEvents.subjectId, s.packageId));
    expect(trail.filter((e) => e.action === "recipient.authentication.failed")).toHaveLength(20);
    expect(trail.filter((e) => e.action === "recipient.authentication.locked")).toHaveLength(1);

    const locked = await check(token, ACCESS_CODE);
    expect(locked.status).toBe(409);
    expect(await locked.json()).toEqual({ error: "This signing link is locked after too many wrong codes; ask the sender to unlock it" });
    expect((await view(token)).body.data).toMatchObject({ authentication: { locked: true, attemptsLeft: 0 } });
    const pkg = await callJson<TBody<TPkg>>(getPackageRoute, { key: s.key, params: { packageId: s.packageId } });
    expect(pkg.body.data.recipientSessions[0]!.authentication).toEqual({ method: "ACCESS_CODE", locked: true });

    // The sender unlocks (the app); a second unlock is 409.
    const as = { userId: s.org.userId, organisationId: s.org.organisationId };
    const unlocked = await callApp<TBody<TPkg>>(unlockRoute, { as, params: { packageId: s.packageId, sessionId: s.tina.id } });
    expect(unlocked.status).toBe(200);
    expect(unlocked.body.data.recipientSessions[0]!.authentication).toEqual({ method: "ACCESS_CODE", locked: false });
    expect((await callApp(unlockRoute, { as, params: { packageId: s.packageId, sessionId: s.tina.id } })).status).toBe(409);
    await passWith(token, ACCESS_CODE);
    const after = await t.db.select().from(auditEvents).where(eq(auditEvents.subjectId, s.packageId));
    expect(after.filter((e) => e.action === "recipient.authentication.unlocked")).toHaveLength(1);
  });

  it("a new email retires the unused codes and every browser's pass; an ended package shows its end page without a check", async () => {
    const s = await sentPackage();
    const token = await tokenFor(s.lars.id);
    await sendCode(token);
    const old = await lastCodeMail(s.lars.id);
    await sendCode(token);
    const cookie = await passWith(token, (await lastCodeMail(s.lars.id)).code);
    const moved = await callJson<TBody<TPkg>>(updateRecipientRoute, {
      key: s.key,
      params: { packageId: s.packageId, sessionId: s.lars.id },
      body: { email: "lars.new@example.com" },
    });
    expect(moved.status).toBe(200);
    // The correction invited Lars again with a new link: use it.
    const fresh = await tokenFor(s.lars.id);
    expect((await view(fresh, cookie)).body.data).toMatchObject({ state: "AUTHENTICATION_REQUIRED", authentication: { codeSentTo: "l…@example.com" } });
    expect((await check(fresh, old.code)).status).toBe(422);
    expect((await sendCode(fresh)).body.data.to).toBe("l…@example.com");
    expect((await lastCodeMail(s.lars.id)).row.toEmail).toBe("lars.new@example.com");

    const voided = await callJson(voidRoute, { key: s.key, params: { packageId: s.packageId }, body: {} });
    expect(voided.status).toBe(200);
    expect((await view(fresh)).body.data).toEqual({ state: "CLOSED", reason: "VOIDED", packageTitle: "Lease 4B", signedCopy: false });
    expect((await check(fresh, "123456")).status).toBe(409);
  });

  it("10 parallel code requests send exactly 5 codes an hour", async () => {
    const s = await sentPackage();
    const token = await tokenFor(s.lars.id);
    const results = await Promise.all(Array.from({ length: 10 }, () => sendCode(token)));
    expect(results.map((r) => r.status).sort()).toEqual([200, 200, 200, 200, 200, 429, 429, 429, 429, 429]);
    expect(await t.db.select().from(recipientAuthCodes).where(eq(recipientAuthCodes.sessionId, s.lars.id))).toHaveLength(5);
    expect(await t.db.select().from(mailMessages).where(eq(mailMessages.kind, "SIGNING_CODE"))).toHaveLength(5);
  });

  it("the public API unlocks by correcting the recipient's authentication", async () => {
    const s = await sentPackage();
    const token = await tokenFor(s.lars.id);
    for (let i = 0; i < 5; i++) await check(token, "000000");
    expect((await session(s.lars.id)).authLockedAt).not.toBeNull();
    const corrected = await callJson<TBody<TPkg>>(updateRecipientRoute, {
      key: s.key,
      params: { packageId: s.packageId, sessionId: s.lars.id },
      body: { authentication: { method: "EMAIL_CODE" } },
    });
    expect(corrected.status).toBe(200);
    expect(corrected.body.data.recipientSessions[1]!.authentication).toEqual({ method: "EMAIL_CODE", locked: false });
    expect((await session(s.lars.id)).authFailedAttempts).toBe(0);
    await sendCode(token);
    await passWith(token, (await lastCodeMail(s.lars.id)).code);
  });
});
