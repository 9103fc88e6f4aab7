import { and, count, desc, eq, gt } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { auditEvents } from "@/server/db/schema";
import type { TActor } from "@/server/domain/access/actor";
import { now } from "@/server/lib/clock";
import { UNKNOWN_DEVICE } from "./describe-device";
import { MEMBER_SESSION_LIMITS } from "./limits";
import type { TMyFailedSignIns } from "./schemas";

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * The signed-in member's failed sign-ins (`member.sign_in_failed`, record-failed-sign-in.ts) of the last
 * `failedSignInDays` days: how many, and the newest `failedListed`. Read by the member's own user id, in every
 * organisation: a sign-in checks one password per person and records a failure in the organisation it would have
 * opened, so a member of two organisations sees the guesses at their password from either.
 */
export async function listMyFailedSignIns(db: Db, actor: TActor): Promise<TMyFailedSignIns> {
  const days = MEMBER_SESSION_LIMITS.failedSignInDays;
  const where = and(
    eq(auditEvents.subjectType, "member"),
    eq(auditEvents.subjectId, actor.user.id),
    gt(auditEvents.createdAt, new Date(now().getTime() - days * DAY_MS)),
    eq(auditEvents.action, "member.sign_in_failed"),
  );
  const [rows, [total]] = await Promise.all([
    db
      .select({ at: auditEvents.createdAt, clientAddress: auditEvents.clientAddress, data: auditEvents.data })
      .from(auditEvents)
      .where(where)
      .orderBy(desc(auditEvents.createdAt), desc(auditEvents.id))
      .limit(MEMBER_SESSION_LIMITS.failedListed),
    db.select({ n: count() }).from(auditEvents).where(where),
  ]);
  return {
    count: total?.n ?? 0,
    days,
    recent: rows.map((r) => ({ at: r.at, clientAddress: r.clientAddress, device: typeof r.data.device === "string" ? r.data.device : UNKNOWN_DEVICE })),
  };
}
