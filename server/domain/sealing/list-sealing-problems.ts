import { and, desc, eq, gt, isNotNull, isNull, or, sql } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { packages } from "@/server/db/schema";
import type { TActor } from "@/server/domain/access/actor";
import { visiblePackages } from "@/server/domain/packages/visible-packages";
import type { TSealingProblems } from "./schemas";

/**
 * The overview's sealing alert: packages the member can see whose sealing stopped (FAILED: it needs someone)
 * or whose last attempt failed and another is scheduled (RETRYING), stopped ones first, at most `limit`, with
 * the total. Only packages being sealed are read (the due-seal partial index holds just those).
 */
export async function listSealingProblems(db: Db, actor: TActor, opts: { limit?: number } = {}): Promise<TSealingProblems> {
  const where = and(
    visiblePackages(actor),
    eq(packages.status, "IN_PROGRESS"),
    isNotNull(packages.sealRequestedAt),
    or(isNotNull(packages.sealFailedAt), and(isNotNull(packages.sealLastError), isNull(packages.sealClaimToken), gt(packages.sealAttempts, 0))),
  );
  const [counts, rows] = await Promise.all([
    db
      .select({ total: sql<number>`count(*)::int`, failed: sql<number>`count(*) filter (where ${packages.sealFailedAt} is not null)::int` })
      .from(packages)
      .where(where),
    db
      .select({
        id: packages.id,
        title: packages.title,
        attempts: packages.sealAttempts,
        lastError: packages.sealLastError,
        failedAt: packages.sealFailedAt,
        nextAttemptAt: packages.sealNextAttemptAt,
      })
      .from(packages)
      .where(where)
      .orderBy(sql`${packages.sealFailedAt} is null`, desc(packages.sealFailedAt), desc(packages.sealRequestedAt), desc(packages.id))
      .limit(opts.limit ?? 5),
  ]);
  return {
    total: Number(counts[0]?.total ?? 0),
    failed: Number(counts[0]?.failed ?? 0),
    items: rows.map((r) => ({
      ...r,
      state: r.failedAt ? ("FAILED" as const) : ("RETRYING" as const),
      failedAt: r.failedAt?.toISOString() ?? null,
      nextAttemptAt: r.nextAttemptAt?.toISOString() ?? null,
    })),
  };
}
