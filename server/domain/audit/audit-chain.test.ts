/**
 * Protects the audit hash chain (recordAudit + verifyAuditChain): each subject's events link by
 * `previous_hash` even when they share one createdAt (injected clock); a changed `data`, action or a removed
 * event breaks the chain at the right event; other subjects are separate chains; and on PostgreSQL concurrent
 * events of one subject still make one line (no fork).
 */
import { asc, eq, sql } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { openPostgres } from "@/server/db/client";
import { auditEvents } from "@/server/db/schema";
import { setClock } from "@/server/lib/clock";
import { useTestDb } from "@/server/test/db";
import { createTestOrg } from "@/server/test/factories";
import { recordAudit } from "./record-audit";
import { verifyAuditChain } from "./verify-audit-chain";

const t = useTestDb();
afterEach(() => setClock(undefined));

async function trail(subjectId: string) {
  return t.db.select().from(auditEvents).where(eq(auditEvents.subjectId, subjectId)).orderBy(asc(auditEvents.createdAt));
}

describe("the audit hash chain", () => {
  it("links a subject's events, also at one instant; a changed data or action, or a removed event, breaks it", async () => {
    const org = await createTestOrg(t.db);
    setClock(() => new Date("2030-01-01T00:00:00Z"));
    const base = { organisationId: org.organisationId, workspaceId: org.workspaceId, subjectType: "package" };
    for (let i = 0; i < 5; i++) {
      await t.db.transaction((tx) => recordAudit(tx, { ...base, subjectId: "pkg_a", action: `step.${i}`, data: { i, nested: { z: 1, a: [i, "x"] } } }));
      await recordAudit(t.db, { ...base, subjectId: "pkg_b", action: `other.${i}` });
    }
    const ok = await verifyAuditChain(t.db, "package", "pkg_a");
    expect(ok.ok).toBe(true);
    const rows = await trail("pkg_a");
    expect(rows.filter((r) => r.previousHash === null)).toHaveLength(1);
    // The head is the event nobody names as previous; every hash is a SHA-256 in hex.
    const named = new Set(rows.map((r) => r.previousHash));
    const head = rows.filter((r) => !named.has(r.hash));
    expect(head).toHaveLength(1);
    expect(ok.head).toBe(head[0]!.hash);
    expect(rows.every((r) => /^[0-9a-f]{64}$/.test(r.hash ?? ""))).toBe(true);
    expect((await verifyAuditChain(t.db, "package", "pkg_b")).ok).toBe(true);
    expect(await verifyAuditChain(t.db, "package", "pkg_none")).toEqual({ ok: true, head: null });

    const third = rows.find((r) => r.action === "step.2")!;
    await t.db
      .update(auditEvents)
      .set({ data: { i: 2, nested: { z: 1, a: [2, "changed"] } } })
      .where(eq(auditEvents.id, third.id));
    expect(await verifyAuditChain(t.db, "package", "pkg_a")).toEqual({ ok: false, head: null, brokenAt: third.id });
    await t.db.update(auditEvents).set({ data: third.data }).where(eq(auditEvents.id, third.id));
    expect((await verifyAuditChain(t.db, "package", "pkg_a")).ok).toBe(true);

    await t.db.update(auditEvents).set({ action: "step.x" }).where(eq(auditEvents.id, third.id));
    expect((await verifyAuditChain(t.db, "package", "pkg_a")).brokenAt).toBe(third.id);
    await t.db.update(auditEvents).set({ action: third.action }).where(eq(auditEvents.id, third.id));

    await t.db.delete(auditEvents).where(eq(auditEvents.id, third.id));
    const removed = await verifyAuditChain(t.db, "package", "pkg_a");
    expect(removed.ok).toBe(false);
    expect(removed.brokenAt).toBe(rows.find((r) => r.previousHash === third.hash)!.id);
  });

  it.runIf(Boolean(process.env.DATABASE_URL))("concurrent events of one package keep one linear chain on PostgreSQL", async () => {
    const org = await createTestOrg(t.db);
    const other = await openPostgres(t.url, { max: 5 });
    const base = { organisationId: org.organisationId, workspaceId: org.workspaceId, subjectType: "package", subjectId: "pkg_c" };
    try {
      await Promise.all(
        Array.from({ length: 30 }, (_, i) =>
          (i % 2 ? other.db : t.db).transaction(async (tx) => {
            await recordAudit(tx, { ...base, action: `race.${i}` });
            // Hold the transaction a moment so the next writer has to wait for the lock, not just find no row.
            await tx.execute(sql`select pg_sleep(0.005)`);
          }),
        ),
      );
    } finally {
      await other.close();
    }
    const rows = await trail("pkg_c");
    expect(rows).toHaveLength(30);
    expect(new Set(rows.map((r) => r.previousHash)).size).toBe(30);
    expect((await verifyAuditChain(t.db, "package", "pkg_c")).ok).toBe(true);
  });
});
