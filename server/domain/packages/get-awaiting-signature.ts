import { and, count, desc, eq, inArray, sql } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { packages, recipientSessions } from "@/server/db/schema";
import type { TActor } from "@/server/domain/access/actor";
import { visiblePackages } from "./visible-packages";

/**
 * The overview's "awaiting signature": how many packages the member can see are out for signing (in progress,
 * on hold), and the most recently changed in-progress ones with their signers' progress.
 */
export async function getAwaitingSignature(db: Db, actor: TActor, opts: { limit?: number } = {}) {
  const visible = visiblePackages(actor);
  const [counts, recent] = await Promise.all([
    db
      .select({ status: packages.status, n: count() })
      .from(packages)
      .where(and(visible, inArray(packages.status, ["IN_PROGRESS", "ON_HOLD"])))
      .groupBy(packages.status),
    db
      .select({
        id: packages.id,
        title: packages.title,
        updatedAt: packages.updatedAt,
        signers: sql<number>`(select count(*)::int from ${recipientSessions} s where s.package_id = "packages"."id" and s.status <> 'CANCELLED')`,
        signed: sql<number>`(select count(*)::int from ${recipientSessions} s where s.package_id = "packages"."id" and s.status = 'COMPLETED')`,
      })
      .from(packages)
      .where(and(visible, eq(packages.status, "IN_PROGRESS")))
      .orderBy(desc(packages.updatedAt), desc(packages.id))
      .limit(opts.limit ?? 5),
  ]);
  const byStatus = Object.fromEntries(counts.map((c) => [c.status, Number(c.n)]));
  return {
    inProgress: byStatus.IN_PROGRESS ?? 0,
    onHold: byStatus.ON_HOLD ?? 0,
    recent: recent.map((r) => ({ id: r.id, title: r.title, updatedAt: r.updatedAt, signers: Number(r.signers), signed: Number(r.signed) })),
  };
}
