/**
 * Whether a signed-in session may still act, read on every request with the member (load-session-actor.ts):
 * its row exists, it was active within `idleMs` and it signed in within `lifetimeMs`. `last_seen_at` is moved at
 * most once a minute.
 */
import { and, eq, lt } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { memberSessions } from "@/server/db/schema";
import { MEMBER_SESSION_LIMITS } from "./limits";

export function sessionIsLive(session: { signedInAt: Date; lastSeenAt: Date }, at: Date): boolean {
  return (
    at.getTime() - session.lastSeenAt.getTime() < MEMBER_SESSION_LIMITS.idleMs && at.getTime() - session.signedInAt.getTime() < MEMBER_SESSION_LIMITS.lifetimeMs
  );
}

/** The oldest activity and sign-in a live session can have at `at` (the lists' filter, in SQL terms). */
export function liveSince(at: Date): { lastSeenAfter: Date; signedInAfter: Date } {
  return { lastSeenAfter: new Date(at.getTime() - MEMBER_SESSION_LIMITS.idleMs), signedInAfter: new Date(at.getTime() - MEMBER_SESSION_LIMITS.lifetimeMs) };
}

/** Records the session's activity when its `last_seen_at` is a minute old or more (one guarded update). */
export async function touchMemberSession(db: Db, sessionId: string, lastSeenAt: Date, at: Date): Promise<void> {
  if (at.getTime() - lastSeenAt.getTime() < MEMBER_SESSION_LIMITS.touchEveryMs) return;
  await db
    .update(memberSessions)
    .set({ lastSeenAt: at })
    .where(and(eq(memberSessions.id, sessionId), lt(memberSessions.lastSeenAt, at)));
}

/** Signing out in this browser: the session's row goes, so a copy of its cookie no longer works either. */
export async function endSignedOutSession(db: Db, sessionId: string): Promise<void> {
  await db.delete(memberSessions).where(eq(memberSessions.id, sessionId));
}
