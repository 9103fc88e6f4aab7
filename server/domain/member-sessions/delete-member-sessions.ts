import { and, eq, ne } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { memberSessions } from "@/server/db/schema";

/**
 * Deletes a member's sessions in one organisation — all of them, or all but `keep` (the one asking) — and returns
 * the ids ended, for the caller's audit event. Each of those sessions is over at its next request.
 */
export async function deleteMemberSessions(tx: Db, where: { organisationId: string; userId: string; keep?: string }): Promise<string[]> {
  const rows = await tx
    .delete(memberSessions)
    .where(
      and(
        eq(memberSessions.organisationId, where.organisationId),
        eq(memberSessions.userId, where.userId),
        where.keep === undefined ? undefined : ne(memberSessions.id, where.keep),
      ),
    )
    .returning({ id: memberSessions.id });
  return rows.map((row) => row.id);
}
