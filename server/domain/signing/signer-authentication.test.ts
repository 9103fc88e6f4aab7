/**
 * Signer authentication (issue 21; docs/decisions/signer-authentication.md), through the real route handlers on
 * a real database (PGlite, and PostgreSQL with DATABASE_URL): the three methods and the asserted identity as
 * the API takes and shows them, their validation errors at exact paths, the access code and email codes never
 * echoed (answers, audit trail, webhook outbox, mail other than the code mail, logs), the signing page's check
 * (view, 403 on every other step without the signer cookie, the cookie bound to the session), email codes'
 * expiry, single use and hourly limit on an injected clock, and the lock under 20 parallel wrong codes.
 */
import { Readable, Writable } from "node:stream";
import { and, eq } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { POST as createRoute } from "@/app/api/v1/packages/route";
import { POST as createFromTemplateRoute } from "@/app/api/v1/packages/from-template/route";
import { POST as bulkSendRoute } from "@/app/api/v1/packages/bulk-send/route";
import { POST as addRecipientRoute } from "@/app/api/v1/packages/[packageId]/recipients/route";
import { PATCH as updateRecipientRoute } from "@/app/api/v1/packages/[packageId]/recipients/[sessionId]/route";
import { GET as getPackageRoute } from "@/app/api/v1/packages/[packageId]/route";
import { GET as auditRoute } from "@/app/api/v1/packages/[packageId]/audit-events/route";
import { POST as sendRoute } from "@/app/api/v1/packages/[packageId]/send/route";
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
import { POST as addRoleRoute } from "@/app/api/v1/templates/[templateId]/roles/route";
import { auditEvents, mailMessages, recipientAuthCodes, recipientSessions, templateRoles, webhookEvents } from "@/server/db/schema";
import { verifyAuditChain } from "@/server/domain/audit/verify-audit-chain";
import { mailDetailView } from "@/server/domain/mail/mail-view";
import { redactSigningLinks } from "@/server/domain/mail/redact-signing-links";
import { buildSigningCodeMail } from "@/server/domain/mail/templates/build-signing-code-mail";
import { createActiveTemplate } from "@/server/domain/packages/test-support/fixtures";
import { setClock } from "@/server/lib/clock";
import { sha256Hex } from "@/server/lib/crypto";
import { createLogger, setLogger } from "@/server/lib/logger";
import { getFileStore } from "@/server/storage/get-file-store";
import { callApp } from "@/server/test/app-http";
import { useTestDb } from "@/server/test/db";
import { createTestKey, createTestOrg } from "@/server/test/factories";
import { callJson, callRoute } from "@/server/test/http";

const t = useTestDb();
const T0 = new Date("2031-05-01T09:00:00Z");
let clock = T0;
const tick = (ms: number) => {
  clock = new Date(clock.getTime() + ms);
};

afterEach(() => {
  setClock(undefined);
  setLogger(undefined);
});

const ACCESS_CODE = "blue-heron-42";
const UA = "Mozilla/5.0 (signer test)";

type TBody<T = Record<string, unknown>> = { data: T; error?: string; details?: Record<string, string[]> };
type TSession = { id: string; email: string; authentication: { method: string; locked: boolean }; identity: unknown };
type TPkg = { id: string; recipientSessions: TSession[]; documents: { id: string }[] };

/** Every JSON line the logger writes during the test. */
function captureLogs(): string[] {
  const lines: string[] = [];
  setLogger(
    createLogger(
      new Writable({
        write(chunk: Buffer, _enc, done) {
          lines.push(chunk.toString("utf8"));
          done();
        },
      }),
      "debug",
    ),
  );
  return lines;
}

async function setup() {
  clock = T0;
  setClock(() => clock);
  const org = await createTestOrg(t.db);
  const key = (await createTestKey(t.db, org)).value;
  const tpl = await createActiveTemplate(t.db, org);
  await (await getFileStore()).put("files/lease", Readable.from([Buffer.from("%PDF-1.7\n%test\n")]), { contentType: "application/pdf" });
  return { org, key, tpl };
}

/** Tina with an access code and an asserted identity, Lars with an email code; both can sign at once. */
async function sentPackage() {
  const base = await setup();
  const created = await callJson<TBody<TPkg>>(createFromTemplateRoute, {
    key: base.key,
    body: {
      templateId: base.tpl.templateId,
      title: "Lease 4B",
      sequential: false,
      recipients: [
        {
          email: "tina@example.com",
          name: "Tina Tenant",
          roleIndex: 0,
          authentication: { method: "ACCESS_CODE", accessCode: ` ${ACCESS_CODE} ` },
          identity: { method: "SSO (Okta)", assertionId: "8f3a2c9e", authenticatedAt: "2031-05-01T11:02:00+02:00" },
        },
        { email: "lars@example.com", name: "Lars Landlord", roleIndex: 1, authentication: { method: "EMAIL_CODE" } },
      ],
    },
  });
  expect(created.status).toBe(201);
  const packageId = created.body.data.id;
  const sent = await callJson<TBody<TPkg>>(sendRoute, { key: base.key, params: { packageId }, body: {} });
  expect(sent.status).toBe(200);
  const [tina, lars] = sent.body.data.recipientSessions;
  return { ...base, packageId, created: created.body, tina: tina!, lars: lars!, documentId: sent.body.data.documents[0]!.id };
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

const session = async (id: string) => (await t.db.select().from(recipientSessions).where(eq(recipientSessions.id, id)))[0]!;

describe("recipients' authentication and identity in the API", () => {
  it("takes the three methods and an asserted identity, shows the method and identity, and never the code", async () => {
    const logs = captureLogs();
    const s = await sentPackage();
    const { tina, lars } = s;
    expect(tina.authentication).toEqual({ method: "ACCESS_CODE", locked: false });
    expect(tina.identity).toEqual({ method: "SSO (Okta)", assertionId: "8f3a2c9e", authenticatedAt: "2031-05-01T09:02:00.000Z" });
    expect(lars.authentication).toEqual({ method: "EMAIL_CODE", locked: false });
    expect(lars.identity).toBeNull();

    // A blank package's recipients: the default is NONE.
    const blank = await callJson<TBody<TPkg>>(createRoute, { key: s.key, body: { title: "Blank", recipients: [{ email: "nora@example.com" }] } });
    expect(blank.status).toBe(201);
    expect(blank.body.data.recipientSessions[0]!.authentication).toEqual({ method: "NONE", locked: false });

    // Stored only as a scrypt hash of the trimmed code.
    const row = await session(tina.id);
    expect(row.accessCodeHash).toMatch(/^scrypt\$/);
    expect(row.accessCodeHash).not.toContain(ACCESS_CODE);

    const got = await callJson<TBody<TPkg>>(getPackageRoute, { key: s.key, params: { packageId: s.packageId } });
    const audit = await callJson<TBody>(auditRoute, { key: s.key, params: { packageId: s.packageId } });
    const hooks = await t.db.select().from(webhookEvents);
    const mails = await t.db.select().from(mailMessages);
    for (const text of [
      JSON.stringify(s.created),
      JSON.stringify(got.body),
      JSON.stringify(audit.body),
      JSON.stringify(hooks),
      JSON.stringify(mails),
      logs.join(""),
    ]) {
      expect(text).not.toContain(ACCESS_CODE);
    }
  });

  it("answers 422 naming the exact field of a bad authentication or identity, on every input that makes or corrects a recipient", async () => {
    const s = await sentPackage();
    const blank = (recipient: Record<string, unknown>) => callJson<TBody>(createRoute, { key: s.key, body: { title: "Blank", recipients: [recipient] } });
    const cases: [Record<string, unknown>, string][] = [
      [{ authentication: { method: "ACCESS_CODE" } }, "recipients.0.authentication.accessCode"],
      [{ authentication: { method: "ACCESS_CODE", accessCode: "abc" } }, "recipients.0.authentication.accessCode"],
      [{ authentication: { method: "ACCESS_CODE", accessCode: "x".repeat(51) } }, "recipients.0.authentication.accessCode"],
      [{ authentication: { method: "EMAIL_CODE", accessCode: "abcd" } }, "recipients.0.authentication.accessCode"],
      [{ authentication: { method: "SMS" } }, "recipients.0.authentication.method"],
      [{ identity: { method: "x".repeat(101) } }, "recipients.0.identity.method"],
      [{ identity: { method: "SSO", authenticatedAt: "yesterday" } }, "recipients.0.identity.authenticatedAt"],
    ];
    for (const [extra, path] of cases) {
      const res = await blank({ email: "nora@example.com", ...extra });
      expect(res.status, path).toBe(422);
      expect(Object.keys(res.body.details ?? {}), JSON.stringify(extra)).toEqual([path]);
    }
    const fromTemplate = await callJson<TBody>(createFromTemplateRoute, {
      key: s.key,
      body: {
        templateId: s.tpl.templateId,
        title: "T",
        recipients: [
          { email: "a@example.com", roleIndex: 0, authentication: { method: "ACCESS_CODE", accessCode: "123" } },
          { email: "b@example.com", roleIndex: 1 },
        ],
      },
    });
    expect(fromTemplate.status).toBe(422);
    expect(Object.keys(fromTemplate.body.details!)).toEqual(["recipients.0.authentication.accessCode"]);
    const bulk = await callJson<TBody>(bulkSendRoute, {
      key: s.key,
      body: {
        templateId: s.tpl.templateId,
        items: [
          {
            recipients: [
              { email: "a@example.com", roleIndex: 0 },
              { email: "b@example.com", roleIndex: 1, authentication: { method: "NOPE" } },
            ],
          },
        ],
      },
    });
    expect(bulk.status).toBe(422);
    expect(Object.keys(bulk.body.details!)).toEqual(["items.0.recipients.1.authentication.method"]);
    const added = await callJson<TBody>(addRecipientRoute, {
      key: s.key,
      params: { packageId: s.packageId },
      body: { email: "c@example.com", identity: { method: "" } },
    });
    expect(added.status).toBe(422);
    expect(Object.keys(added.body.details!)).toEqual(["identity.method"]);
    const corrected = await callJson<TBody>(updateRecipientRoute, {
      key: s.key,
      params: { packageId: s.packageId, sessionId: s.tina.id },
      body: { authentication: { method: "ACCESS_CODE", accessCode: "ab" } },
    });
    expect(corrected.status).toBe(422);
    expect(Object.keys(corrected.body.details!)).toEqual(["authentication.accessCode"]);
  });

  it("applies a template role's preset method; an ACCESS_CODE role needs the code from the recipient", async () => {
    const s = await setup();
    const role = await callJson<TBody<{ authentication: { method: string } }>>(addRoleRoute, {
      key: s.key,
      params: { templateId: s.tpl.templateId },
      body: { name: "Witness", authentication: { method: "EMAIL_CODE" } },
    });
    expect(role.status).toBe(201);
    expect(role.body.data.authentication).toEqual({ method: "EMAIL_CODE" });
    const recipients = [
      { email: "a@example.com", roleIndex: 0 },
      { email: "b@example.com", roleIndex: 1 },
      { email: "w@example.com", roleIndex: 2 },
    ];
    const made = await callJson<TBody<TPkg>>(createFromTemplateRoute, { key: s.key, body: { templateId: s.tpl.templateId, title: "T", recipients } });
    expect(made.status).toBe(201);
    expect(made.body.data.recipientSessions.map((r) => r.authentication.method)).toEqual(["NONE", "NONE", "EMAIL_CODE"]);

    await t.db
      .update(templateRoles)
      .set({ authMethod: "ACCESS_CODE" })
      .where(and(eq(templateRoles.templateId, s.tpl.templateId), eq(templateRoles.position, 0)));
    const missing = await callJson<TBody>(createFromTemplateRoute, { key: s.key, body: { templateId: s.tpl.templateId, title: "T", recipients } });
    expect(missing.status).toBe(422);
    expect(Object.keys(missing.body.details!)).toEqual(["recipients.0.authentication.accessCode"]);
    const own = await callJson<TBody<TPkg>>(createFromTemplateRoute, {
      key: s.key,
      body: { templateId: s.tpl.templateId, title: "T", recipients: [{ ...recipients[0], authentication: { method: "NONE" } }, recipients[1], recipients[2]] },
    });
    expect(own.status).toBe(201);
    expect(own.body.data.recipientSessions[0]!.authentication.method).toBe("NONE");
  });
});

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
    const logs = captureLogs();
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
      for (const text of [trail, hooks, otherMail, logs.join(""), JSON.stringify(sent.body)]) expect(text).not.toContain(code);
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
