/**
 * The package credit sent with the COMMIT (issue 26; docs/decisions/package-credit-last.md). On every driver: a
 * spent allowance is a 402 that writes nothing — for a send (the package still DRAFT, no session invited, no
 * mail, no audit or webhook event, `packages_used` unchanged) and for create-and-send (no package at all). On
 * PostgreSQL: the credit's row lock is released by PostgreSQL at the pipelined COMMIT, with no trip through
 * this process between the credit's answer and the COMMIT — another connection updates the organisation's row
 * while this process cannot run at all (its event loop blocked), before the send's call has returned.
 */
import postgres from "postgres";
import { and, eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { POST as createFromTemplateRoute } from "@/app/api/v1/packages/from-template/route";
import { POST as sendRoute } from "@/app/api/v1/packages/[packageId]/send/route";
import { queryRows } from "@/server/db/client";
import { auditEvents, mailMessages, organisations, packages, recipientSessions, webhookEvents } from "@/server/db/schema";
import { useTestDb } from "@/server/test/db";
import { callJson } from "@/server/test/http";
import { orgWithTemplate, twoRecipients } from "./test-support/fixtures";

const t = useTestDb();
const onPostgres = Boolean(process.env.DATABASE_URL);

type TBody = { data: { id: string; status: string }; error?: string };
const recipients = twoRecipients;

async function setup() {
  const { org, key, templateId } = await orgWithTemplate(t.db);
  const fromTemplate = (extra: Record<string, unknown> = {}) =>
    callJson<TBody>(createFromTemplateRoute, { key, body: { templateId, title: "Lease 4B", recipients, ...extra } });
  const send = (packageId: string) => callJson<TBody>(sendRoute, { key, params: { packageId }, body: {} });
  const used = async () => (await t.db.select().from(organisations).where(eq(organisations.id, org.organisationId)))[0]!.packagesUsed;
  return { org, fromTemplate, send, used };
}

describe("a spent allowance writes nothing", () => {
  it("send: 402, the package still DRAFT, nothing invited, mailed, audited or raised, packages_used unchanged", async () => {
    const s = await setup();
    const draft = (await s.fromTemplate()).body.data;
    await t.db.update(organisations).set({ packageAllowance: 1, packagesUsed: 1 }).where(eq(organisations.id, s.org.organisationId));
    const refused = await s.send(draft.id);
    expect(refused.status).toBe(402);
    expect(refused.body.error).toBe("No package credit left: the organisation's package allowance is used up");
    const [pkg] = await t.db.select().from(packages).where(eq(packages.id, draft.id));
    expect(pkg).toMatchObject({ status: "DRAFT", sentAt: null });
    const sessions = await t.db.select().from(recipientSessions).where(eq(recipientSessions.packageId, draft.id));
    expect(sessions.map((r) => r.sentAt)).toEqual([null, null]);
    expect(await t.db.select().from(mailMessages).where(eq(mailMessages.packageId, draft.id))).toEqual([]);
    expect(await t.db.select().from(webhookEvents)).toEqual([]);
    const audit = await t.db
      .select({ action: auditEvents.action })
      .from(auditEvents)
      .where(and(eq(auditEvents.subjectId, draft.id)));
    expect(audit.map((a) => a.action)).toEqual(["package.created"]);
    expect(await s.used()).toBe(1);

    // The credit given back: the same draft sends, once.
    await t.db.update(organisations).set({ packageAllowance: 2 }).where(eq(organisations.id, s.org.organisationId));
    expect((await s.send(draft.id)).status).toBe(200);
    expect(await s.used()).toBe(2);
    expect(await t.db.select().from(webhookEvents)).toHaveLength(2); // PACKAGE_SENT, SESSION_SENT
  });

  it("create-and-send: 402, no package, no audit, packages_used unchanged", async () => {
    const s = await setup();
    await t.db.update(organisations).set({ packageAllowance: 0 }).where(eq(organisations.id, s.org.organisationId));
    const refused = await s.fromTemplate({ status: "sent" });
    expect(refused.status).toBe(402);
    expect(await t.db.select().from(packages)).toEqual([]);
    expect(await t.db.select().from(recipientSessions)).toEqual([]);
    expect(await t.db.select().from(auditEvents).where(eq(auditEvents.subjectType, "package"))).toEqual([]);
    expect(await t.db.select().from(webhookEvents)).toEqual([]);
    expect(await s.used()).toBe(0);
  });
});

describe.runIf(onPostgres)("the credit's lock on PostgreSQL", () => {
  it("is released at the COMMIT sent with it: another connection updates the organisation while this process is blocked", async () => {
    const s = await setup();
    const draft = (await s.fromTemplate()).body.data;
    const pool = postgres(t.url, { max: 2, onnotice: () => {} });
    const holder = await pool.reserve();
    const other = await pool.reserve();
    const org = s.org.organisationId.replaceAll("'", "''");
    try {
      // The organisation's row held by another transaction as the credit holds it (FOR NO KEY UPDATE: the send's
      // foreign-key checks still pass), so the send's credit waits for it.
      await holder.unsafe("begin");
      await holder.unsafe(`select 1 from organisations where id = '${org}' for no key update`);
      await other.unsafe("set lock_timeout = '500ms'");
      const sending = s.send(draft.id);
      const waiting = sql`select count(*)::int as n from pg_stat_activity
        where datname = current_database() and wait_event_type = 'Lock' and query like '%packages_used = packages_used + 1%'`;
      for (let i = 0; ; i++) {
        if ((await queryRows<{ n: number }>(t.db, waiting))[0]!.n === 1) break;
        if (i > 500) {
          const all = await queryRows(t.db, sql`select state, wait_event_type, wait_event, query from pg_stat_activity where datname = current_database()`);
          throw new Error(`the send's credit never waited for the organisation's row: ${JSON.stringify(all)}`);
        }
        await new Promise((r) => setTimeout(r, 10));
      }
      // Sent now, run by PostgreSQL without this process: the holder commits after 0.3 s; at 1.5 s the other
      // connection updates the organisation's row (giving up after 0.5 s of waiting for its lock).
      const released = Promise.all([holder.unsafe("select pg_sleep(0.3)").execute(), holder.unsafe("commit").execute()]);
      const updated = Promise.all([
        other.unsafe("select pg_sleep(1.5)").execute(),
        other.unsafe(`update organisations set packages_used = packages_used where id = '${org}' returning packages_used`).execute(),
      ]);
      await new Promise((r) => setTimeout(r, 50)); // postgres.js writes on the next turn of the event loop
      // This process stops for 2.5 s: the send's credit gets the row at 0.3 s, and its COMMIT must already be
      // in PostgreSQL's hands — this process cannot send it before 2.5 s.
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 2500);
      const [, [row]] = await updated;
      expect(row).toEqual({ packages_used: 1 });
      await released;
      expect((await sending).status).toBe(200);
      expect(await s.used()).toBe(1);
    } finally {
      holder.release();
      other.release();
      await pool.end();
    }
  });
});
