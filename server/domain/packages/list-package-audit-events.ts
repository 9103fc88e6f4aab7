import { and, count, desc, eq } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { auditEvents, users } from "@/server/db/schema";
import { pageWindow, type TPageQuery } from "@/server/lib/pagination";
import { findPackage } from "./find-package";
import type { TPackageActor } from "./package-actor";

/** The package's audit trail, newest first, paged: who (member or key issuer, and the key), from where, what. */
export async function listPackageAuditEvents(db: Db, actor: TPackageActor, packageId: string, page: TPageQuery) {
  const pkg = await findPackage(db, actor, packageId);
  const { limit, offset } = pageWindow(page);
  const where = and(eq(auditEvents.organisationId, pkg.organisationId), eq(auditEvents.subjectType, "package"), eq(auditEvents.subjectId, pkg.id));
  const [rows, [total]] = await Promise.all([
    db
      .select({ e: auditEvents, email: users.email })
      .from(auditEvents)
      .leftJoin(users, eq(users.id, auditEvents.actorUserId))
      .where(where)
      .orderBy(desc(auditEvents.createdAt), desc(auditEvents.id))
      .limit(limit)
      .offset(offset),
    db.select({ n: count() }).from(auditEvents).where(where),
  ]);
  return {
    auditEvents: rows.map(({ e, email }) => ({
      id: e.id,
      action: e.action,
      actorUserId: e.actorUserId,
      actorEmail: email,
      apiKeyId: e.apiKeyId,
      clientAddress: e.clientAddress,
      data: e.data,
      createdAt: e.createdAt.toISOString(),
      previousHash: e.previousHash,
      hash: e.hash,
    })),
    totalCount: total?.n ?? 0,
    page: page.page,
    pageSize: page.pageSize,
  };
}
