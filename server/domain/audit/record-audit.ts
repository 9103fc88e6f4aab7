import { sql } from "drizzle-orm";
import { queryRows, type Db } from "@/server/db/client";
import { auditEvents } from "@/server/db/schema";
import { newId } from "@/server/lib/ids";
import { now } from "@/server/lib/clock";
import { auditEventHash } from "./audit-event-hash";

export type TAuditInput = {
  organisationId: string;
  workspaceId?: string | null;
  subjectType: string;
  subjectId?: string | null;
  action: string;
  actorUserId?: string | null;
  apiKeyId?: string | null;
  /** The client's address (API caller, member's browser, recipient), when known. */
  clientAddress?: string | null;
  data?: Record<string, unknown>;
};

/**
 * Writes one audit event; call it inside the transaction of the change it records.
 *
 * Each subject's events form a hash chain: `previous_hash` is the subject's latest event's `hash`, and `hash`
 * is SHA-256 over that and this event's content (audit-event-hash.ts), so a changed or removed event is
 * detectable (verifyAuditChain). Appends to one subject are serialised by a transaction-scoped advisory lock
 * on the subject, so concurrent events of one package still make one line, never a fork. The latest event is
 * the one no other event names as its previous (not the latest `created_at`: the injected clock and one
 * millisecond can give several events the same time). An event without a subject id stands alone.
 */
export async function recordAudit(db: Db, input: TAuditInput): Promise<void> {
  // A savepoint inside the caller's transaction; a transaction of its own when called outside one, so the
  // advisory lock is held until the insert commits.
  await db.transaction(async (tx) => {
    const subjectId = input.subjectId ?? null;
    let previousHash: string | null = null;
    if (subjectId !== null) {
      await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`audit:${input.subjectType}:${subjectId}`}, 0))`);
      const [head] = await queryRows<{ hash: string }>(
        tx,
        sql`select a.hash from audit_events a
            where a.subject_type = ${input.subjectType} and a.subject_id = ${subjectId} and a.hash is not null
              and not exists (select 1 from audit_events b
                              where b.subject_type = a.subject_type and b.subject_id = a.subject_id and b.previous_hash = a.hash)
            order by a.created_at desc limit 1`,
      );
      previousHash = head?.hash ?? null;
    }
    const row = {
      action: input.action,
      actorUserId: input.actorUserId ?? null,
      apiKeyId: input.apiKeyId ?? null,
      clientAddress: input.clientAddress ?? null,
      data: input.data ?? {},
      createdAt: now(),
    };
    await tx.insert(auditEvents).values({
      id: newId("aud"),
      organisationId: input.organisationId,
      workspaceId: input.workspaceId ?? null,
      subjectType: input.subjectType,
      subjectId,
      ...row,
      previousHash,
      hash: auditEventHash(previousHash, row),
    });
  });
}
