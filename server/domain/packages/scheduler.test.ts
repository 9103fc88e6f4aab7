/**
 * Protects the packages scheduler (jobs.ts) on both databases, on the injected clock: a scheduled package is
 * sent by the service when due (not a millisecond before), a refused scheduled send goes back to DRAFT with
 * `scheduleError` readable on GET and no event; expiry voids sent and held packages with PACKAGE_EXPIRED then
 * SESSION_CANCELLED, and leaves drafts and scheduled packages alone; automatic reminders follow the package's
 * schedule up to `max` and never while on hold. On PostgreSQL two runners never send one package twice.
 */
import { and, eq } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { POST as createFromTemplateRoute } from "@/app/api/v1/packages/from-template/route";
import { GET as getRoute } from "@/app/api/v1/packages/[packageId]/route";
import { POST as holdRoute } from "@/app/api/v1/packages/[packageId]/hold/route";
import { POST as resumeRoute } from "@/app/api/v1/packages/[packageId]/resume/route";
import { openPostgres, type DbHandle } from "@/server/db/client";
import { auditEvents, organisations, packageFields, packages, recipientSessions } from "@/server/db/schema";
import { runDeclaredJob } from "@/server/jobs/run-declared-job";
import { setClock } from "@/server/lib/clock";
import type { TDeclaredJob } from "@/server/lib/jobs";
import { useTestDb } from "@/server/test/db";
import { callJson } from "@/server/test/http";
import { completeSession } from "@/server/domain/signing/complete-session";
import { packageJobs } from "./jobs";
import { eventNames, orgWithTemplate, outbox, twoRecipients } from "./test-support/fixtures";

const t = useTestDb();
const T0 = new Date("2030-03-01T09:00:00Z");
const DAY = 24 * 60 * 60 * 1000;
const at = (ms: number) => setClock(() => new Date(T0.getTime() + ms));

afterEach(() => setClock(undefined));

type TPkg = { id: string; status: string; scheduleError: string | null; expiredAt: string | null; sendAt: string | null };
type TBody<T = TPkg> = { data: T; error?: string };

const recipients = twoRecipients;

async function setup() {
  return orgWithTemplate(t.db);
}

async function create(s: Awaited<ReturnType<typeof setup>>, extra: Record<string, unknown>) {
  const res = await callJson<TBody>(createFromTemplateRoute, { key: s.key, body: { templateId: s.templateId, title: "Lease", recipients, ...extra } });
  expect(res.status, res.body.error).toBe(201);
  return res.body.data;
}

/** One worker tick of a job (its budget drains everything due now). */
async function tick(job: TDeclaredJob, handle: DbHandle = t.handle) {
  await runDeclaredJob(job).run(handle, new AbortController().signal);
}

const jobs = packageJobs();

describe("scheduled sends", () => {
  it("sends a due SCHEDULED package with the service: PACKAGE_SENT when due, not before; one credit", async () => {
    const s = await setup();
    at(0);
    const pkg = await create(s, { sendAt: new Date(T0.getTime() + DAY).toISOString() });
    expect(pkg.status).toBe("SCHEDULED");
    at(DAY - 1);
    await tick(jobs.sendScheduled);
    expect(await eventNames(t.db, pkg.id)).toEqual(["PACKAGE_SCHEDULED"]);
    at(DAY);
    await tick(jobs.sendScheduled);
    const got = await callJson<TBody>(getRoute, { key: s.key, params: { packageId: pkg.id } });
    expect(got.body.data).toMatchObject({ status: "IN_PROGRESS", sendAt: null, scheduleError: null });
    expect(await eventNames(t.db, pkg.id)).toEqual(["PACKAGE_SCHEDULED", "PACKAGE_SENT", "SESSION_SENT"]);
    const [org] = await t.db.select().from(organisations).where(eq(organisations.id, s.org.organisationId));
    expect(org!.packagesUsed).toBe(1);
    await tick(jobs.sendScheduled);
    expect(await eventNames(t.db, pkg.id)).toHaveLength(3);
  });

  it("a refused scheduled send: back to DRAFT with scheduleError on GET, an audit event, no webhook event; a later send works", async () => {
    const s = await setup();
    at(0);
    const pkg = await create(s, { sendAt: new Date(T0.getTime() + DAY).toISOString() });
    await t.db.update(organisations).set({ packageAllowance: 0 }).where(eq(organisations.id, s.org.organisationId));
    at(DAY);
    await tick(jobs.sendScheduled);
    const got = await callJson<TBody>(getRoute, { key: s.key, params: { packageId: pkg.id } });
    expect(got.body.data).toMatchObject({ status: "DRAFT", sendAt: null });
    expect(got.body.data.scheduleError).toBe("No package credit left: the organisation's package allowance is used up");
    expect(await eventNames(t.db, pkg.id)).toEqual(["PACKAGE_SCHEDULED"]);
    const audit = await t.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.subjectId, pkg.id), eq(auditEvents.action, "package.schedule_failed")));
    expect(audit).toHaveLength(1);
    expect(audit[0]!.data).toMatchObject({ status: 402, by: "the service" });
    // The refusal rolled back alone: no session was invited.
    const sessions = await t.db.select().from(recipientSessions).where(eq(recipientSessions.packageId, pkg.id));
    expect(sessions.map((x) => x.status)).toEqual(["PENDING", "PENDING"]);

    // Scheduling again clears the error.
    await t.db.update(organisations).set({ packageAllowance: null }).where(eq(organisations.id, s.org.organisationId));
    const { POST: sendRoute } = await import("@/app/api/v1/packages/[packageId]/send/route");
    const again = await callJson<TBody>(sendRoute, { key: s.key, params: { packageId: pkg.id }, body: {} });
    expect(again.body.data).toMatchObject({ status: "IN_PROGRESS", scheduleError: null });
  });

  it("a scheduled package whose expiry passed before its send is refused with the expiry's reason", async () => {
    const s = await setup();
    at(0);
    const pkg = await create(s, { sendAt: new Date(T0.getTime() + 2 * DAY).toISOString(), expiresAt: new Date(T0.getTime() + DAY).toISOString() });
    at(3 * DAY);
    await tick(jobs.expire);
    expect(await eventNames(t.db, pkg.id)).toEqual(["PACKAGE_SCHEDULED"]);
    await tick(jobs.sendScheduled);
    const got = await callJson<TBody>(getRoute, { key: s.key, params: { packageId: pkg.id } });
    expect(got.body.data.status).toBe("DRAFT");
    expect(got.body.data.scheduleError).toBe("Validation failed: The expiry date has passed; move it before sending");
  });
});

describe("expiry", () => {
  it("IN_PROGRESS and ON_HOLD packages past expiresAt: VOID with expiredAt, PACKAGE_EXPIRED then SESSION_CANCELLED; drafts emit nothing", async () => {
    const s = await setup();
    at(0);
    const expiresAt = new Date(T0.getTime() + 5 * DAY).toISOString();
    const running = await create(s, { status: "sent", sequential: false, expiresAt });
    const held = await create(s, { status: "sent", expiresAt });
    expect((await callJson(holdRoute, { key: s.key, params: { packageId: held.id } })).status).toBe(200);
    const draft = await create(s, { expiresAt });
    at(5 * DAY - 1);
    await tick(jobs.expire);
    expect((await eventNames(t.db, running.id)).includes("PACKAGE_EXPIRED")).toBe(false);
    at(5 * DAY);
    await tick(jobs.expire);
    const r = await callJson<TBody>(getRoute, { key: s.key, params: { packageId: running.id } });
    expect(r.body.data).toMatchObject({ status: "VOID", expiredAt: new Date(T0.getTime() + 5 * DAY).toISOString() });
    expect(await eventNames(t.db, running.id)).toEqual([
      "PACKAGE_SENT",
      "SESSION_SENT",
      "SESSION_SENT",
      "PACKAGE_EXPIRED",
      "SESSION_CANCELLED",
      "SESSION_CANCELLED",
    ]);
    expect(await eventNames(t.db, held.id)).toEqual(["PACKAGE_SENT", "SESSION_SENT", "PACKAGE_ON_HOLD", "PACKAGE_EXPIRED", "SESSION_CANCELLED"]);
    expect((await callJson<TBody>(getRoute, { key: s.key, params: { packageId: held.id } })).body.data.status).toBe("VOID");
    const d = await callJson<TBody>(getRoute, { key: s.key, params: { packageId: draft.id } });
    expect(d.body.data).toMatchObject({ status: "DRAFT", expiredAt: null });
    expect(await eventNames(t.db, draft.id)).toEqual([]);
  });

  /**
   * Protects "everyone signed before the deadline is never expired": once the last recipient has finished,
   * sealing is due (the package still reads IN_PROGRESS) and may take or retry past `expiresAt`; the expiry
   * job must leave it alone so that sealing completes it.
   */
  it("leaves a package alone whose last recipient finished and whose sealing is due, retrying or not", async () => {
    const s = await setup();
    at(0);
    const expiresAt = new Date(T0.getTime() + 5 * DAY).toISOString();
    const signed = await create(s, { status: "sent", sequential: false, expiresAt });
    const failing = await create(s, { status: "sent", sequential: false, expiresAt });
    const unsigned = await create(s, { status: "sent", sequential: false, expiresAt });
    at(5 * DAY - 60_000);
    for (const pkg of [signed, failing]) {
      const sessions = await t.db.select().from(recipientSessions).where(eq(recipientSessions.packageId, pkg.id));
      for (const session of sessions) {
        await t.db.update(packageFields).set({ value: "Signed" }).where(eq(packageFields.sessionId, session.id));
        await completeSession(t.db, { kind: "recipient", sessionId: session.id, clientAddress: "203.0.113.9", userAgent: "test" });
      }
    }
    // The second one's sealing failed and is retrying: still not expired.
    await t.db
      .update(packages)
      .set({ sealAttempts: 3, sealLastError: "The original of “lease.pdf” is missing from storage", sealNextAttemptAt: new Date(T0.getTime() + 6 * DAY) })
      .where(eq(packages.id, failing.id));
    at(5 * DAY + 1);
    await tick(jobs.expire);
    for (const pkg of [signed, failing]) {
      const got = await callJson<TBody<TPkg & { sealing: { state: string } | null }>>(getRoute, { key: s.key, params: { packageId: pkg.id } });
      expect(got.body.data).toMatchObject({ status: "IN_PROGRESS", expiredAt: null });
      expect(got.body.data.sealing).not.toBeNull();
      expect(await eventNames(t.db, pkg.id)).not.toContain("PACKAGE_EXPIRED");
    }
    expect((await callJson<TBody>(getRoute, { key: s.key, params: { packageId: failing.id } })).body.data).toMatchObject({ sealing: { state: "RETRYING" } });
    // The control: the package nobody finished expires in the same tick.
    expect((await callJson<TBody>(getRoute, { key: s.key, params: { packageId: unsigned.id } })).body.data.status).toBe("VOID");
  });
});

describe("automatic reminders", () => {
  it("first after firstAfterDays, then every repeatEveryDays, at most max per open session; trigger automatic", async () => {
    const s = await setup();
    at(0);
    const pkg = await create(s, { status: "sent", sequential: false, reminders: { firstAfterDays: 1, repeatEveryDays: 2, max: 2 } });
    const reminded = async () => (await outbox(t.db, pkg.id)).filter((e) => e.event === "SESSION_REMINDED");
    at(DAY - 1);
    await tick(jobs.remind);
    expect(await reminded()).toHaveLength(0);
    at(DAY);
    await tick(jobs.remind);
    expect((await reminded()).map((e) => e.data.trigger)).toEqual(["automatic", "automatic"]);
    at(2 * DAY);
    await tick(jobs.remind);
    expect(await reminded()).toHaveLength(2);
    at(3 * DAY);
    await tick(jobs.remind);
    expect(await reminded()).toHaveLength(4);
    at(30 * DAY);
    await tick(jobs.remind);
    expect(await reminded()).toHaveLength(4);
    const sessions = await t.db.select().from(recipientSessions).where(eq(recipientSessions.packageId, pkg.id));
    expect(sessions.map((x) => [x.remindersSent, x.nextReminderAt])).toEqual([
      [2, null],
      [2, null],
    ]);
  });

  it("none while ON_HOLD; after resume the reminder comes later by the time on hold", async () => {
    const s = await setup();
    at(0);
    const pkg = await create(s, { status: "sent", reminders: { firstAfterDays: 2, repeatEveryDays: 2, max: 3 } });
    at(DAY);
    await callJson(holdRoute, { key: s.key, params: { packageId: pkg.id } });
    at(4 * DAY);
    await tick(jobs.remind);
    expect(await eventNames(t.db, pkg.id)).toEqual(["PACKAGE_SENT", "SESSION_SENT", "PACKAGE_ON_HOLD"]);
    await callJson(resumeRoute, { key: s.key, params: { packageId: pkg.id } });
    // Held three days: the first reminder moved from day 2 to day 5.
    at(5 * DAY - 1);
    await tick(jobs.remind);
    expect((await eventNames(t.db, pkg.id)).at(-1)).toBe("PACKAGE_RESUMED");
    at(5 * DAY);
    await tick(jobs.remind);
    expect((await eventNames(t.db, pkg.id)).at(-1)).toBe("SESSION_REMINDED");
  });
});

describe.runIf(Boolean(process.env.DATABASE_URL))("two runners on PostgreSQL", () => {
  it("never send one scheduled package twice", async () => {
    const s = await setup();
    at(0);
    const ids: string[] = [];
    for (let i = 0; i < 8; i++) ids.push((await create(s, { sendAt: new Date(T0.getTime() + DAY).toISOString() })).id);
    at(DAY);
    const other = await openPostgres(t.url, { max: 2 });
    try {
      await Promise.all([tick(packageJobs().sendScheduled), tick(packageJobs().sendScheduled, other), tick(packageJobs().sendScheduled)]);
    } finally {
      await other.close();
    }
    for (const id of ids) expect(await eventNames(t.db, id)).toEqual(["PACKAGE_SCHEDULED", "PACKAGE_SENT", "SESSION_SENT"]);
    const [org] = await t.db.select().from(organisations).where(eq(organisations.id, s.org.organisationId));
    expect(org!.packagesUsed).toBe(8);
  });
});
