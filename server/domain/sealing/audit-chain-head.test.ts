/**
 * Protects the head printed on the certificate: it is the newest link of the package's audit hash chain,
 * found by the chain itself (the event no other names as its previous), so events that share one instant and
 * whose ids happen to sort the other way still give the true head — the one verifyAuditChain reaches.
 */
import { eq } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { auditEvents } from "@/server/db/schema";
import { recordAudit } from "@/server/domain/audit/record-audit";
import { verifyAuditChain } from "@/server/domain/audit/verify-audit-chain";
import { setClock } from "@/server/lib/clock";
import { useTestDb } from "@/server/test/db";
import { createTestOrg } from "@/server/test/factories";
import { auditChainHead } from "./audit-chain-head";

const t = useTestDb();
afterEach(() => setClock(undefined));

describe("auditChainHead", () => {
  it("is the chain's newest link, whatever order events of one instant come in", async () => {
    const org = await createTestOrg(t.db);
    setClock(() => new Date("2030-01-01T00:00:00Z"));
    for (const action of ["package.created", "package.sent", "session.completed"]) {
      await recordAudit(t.db, { organisationId: org.organisationId, workspaceId: org.workspaceId, subjectType: "package", subjectId: "pkg_head", action });
    }
    const rows = await t.db.select().from(auditEvents).where(eq(auditEvents.subjectId, "pkg_head"));
    const chain = await verifyAuditChain(t.db, "package", "pkg_head");
    expect(chain.ok).toBe(true);
    const newest = rows.find((r) => r.action === "session.completed")!;
    expect(chain.head).toBe(newest.hash);
    // Same instant: any order of the rows (as ids from one millisecond may sort) gives the same head.
    const byAction = (order: string[]) => order.map((a) => rows.find((r) => r.action === a)!);
    expect(await auditChainHead(t.db, "pkg_head", byAction(["session.completed", "package.sent", "package.created"]))).toBe(newest.hash);
    expect(await auditChainHead(t.db, "pkg_head", byAction(["package.sent", "session.completed", "package.created"]))).toBe(newest.hash);
    expect(await auditChainHead(t.db, "pkg_head")).toBe(newest.hash);
  });
});
