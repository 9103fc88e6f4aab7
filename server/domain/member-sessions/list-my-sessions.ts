import { and, desc, eq, gt, sql } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { memberSessions } from "@/server/db/schema";
import type { TActor } from "@/server/domain/access/actor";
import { now } from "@/server/lib/clock";
import { describeDevice } from "./describe-device";
import { MEMBER_SESSION_LIMITS } from "./limits";
import { liveSince } from "./session-liveness";
import type { TMemberSession } from "./schemas";

/**
 * A member's live sessions in an organisation: `currentId`'s first, then the others by last activity, at most
 * `listed`. Sessions idle past `idleMs` or signed in longer than `lifetimeMs` ago are over and not listed (the
 * prune job deletes them once they are idle).
 */
export async function listSessions(db: Db, who: { userId: string; organisationId: string }, currentId: string): Promise<TMemberSession[]> {
  const live = liveSince(now());
  const rows = await db
    .select()
    .from(memberSessions)
    .where(
      and(
        eq(memberSessions.userId, who.userId),
        eq(memberSessions.organisationId, who.organisationId),
        gt(memberSessions.lastSeenAt, live.lastSeenAfter),
        gt(memberSessions.signedInAt, live.signedInAfter),
      ),
    )
    .orderBy(desc(sql`${memberSessions.id} = ${currentId}`), desc(memberSessions.lastSeenAt), desc(memberSessions.id))
    .limit(MEMBER_SESSION_LIMITS.listed);
  return rows.map((row) => ({
    id: row.id,
    current: row.id === currentId,
    device: describeDevice(row.userAgent),
    clientAddress: row.clientAddress,
    signedInAt: row.signedInAt,
    lastActiveAt: row.lastSeenAt,
  }));
}

/** Where the signed-in member is signed in to this organisation: this session first, then the others. */
export function listMySessions(db: Db, actor: TActor): Promise<TMemberSession[]> {
  return listSessions(db, { userId: actor.user.id, organisationId: actor.organisation.id }, actor.sessionId ?? "");
}
