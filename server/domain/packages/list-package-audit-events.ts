import { and, count, desc, eq } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { auditEvents, users } from "@/server/db/schema";
import { pageWindow, type TPageQuery } from "@/server/lib/pagination";
import { findPackage } from "./find-package";
import type { TPackageActor } from "./package-actor";
import type { TPackageRef } from "./schemas";

/** The package's audit trail, newest first, paged: who (member or key issuer, and the key), from where, what. */
export async function listPackageAuditEvents(db: Db, actor: TPackageActor, input: TPackageRef & TPageQuery) {
  const pkg = await findPackage(db, actor, input.packageId);
  const { limit, offset } = pageWindow(input);
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
    page: input.page,
    pageSize: input.pageSize,
  };
}
