import { is, sql } from "drizzle-orm";
import { PgTransaction } from "drizzle-orm/pg-core";
import type { Db } from "@/server/db/client";
import { newId } from "@/server/lib/ids";
import { now } from "@/server/lib/clock";
import { auditEventHash, auditEventHashTail } from "./audit-event-hash";

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
 *
 * Two statements (issue 26): the lock, then ONE `INSERT … SELECT` that reads the chain head and writes the event
 * with its hash computed by PostgreSQL (`sha256` over `[` + the head's hash as JSON + `,` + the rest, which
 * this process serialises exactly as auditEventHash does). The lock must be its own, earlier statement: in READ
 * COMMITTED a statement reads from the snapshot taken when it starts, so a head read in the locking statement
 * could miss an append committed while it waited. The two are sent together (pipelined on the transaction's
 * connection); the insert starts, and takes its snapshot, only once the lock is held.
 */
export async function recordAudit(db: Db, input: TAuditInput): Promise<void> {
  const subjectId = input.subjectId ?? null;
  const row = {
    action: input.action,
    actorUserId: input.actorUserId ?? null,
    apiKeyId: input.apiKeyId ?? null,
    clientAddress: input.clientAddress ?? null,
    data: input.data ?? {},
    createdAt: now(),
  };
  const columns = sql`insert into audit_events (id, organisation_id, workspace_id, subject_type, subject_id, action, actor_user_id, api_key_id,
                                          client_address, data, created_at, previous_hash, hash)`;
  const values = sql`${newId("aud")}, ${input.organisationId}, ${input.workspaceId ?? null}, ${input.subjectType}, ${subjectId}, ${row.action},
                     ${row.actorUserId}, ${row.apiKeyId}, ${row.clientAddress}, ${JSON.stringify(row.data)}::jsonb, ${row.createdAt.toISOString()}::timestamptz`;
  if (subjectId === null) {
    // Stands alone: no chain, no lock, one statement.
    await db.execute(sql`${columns} values (${values}, null, ${auditEventHash(null, row)})`);
    return;
  }
  const lock = sql`select pg_advisory_xact_lock(hashtextextended(${`audit:${input.subjectType}:${subjectId}`}, 0))`;
  const append = sql`${columns}
    select ${values}, head.hash,
           encode(sha256(convert_to('[' || coalesce('"' || head.hash || '"', 'null') || ',' || ${auditEventHashTail(row)}::text, 'UTF8')), 'hex')
    from (select (select a.hash from audit_events a
                  where a.subject_type = ${input.subjectType} and a.subject_id = ${subjectId} and a.hash is not null
                    and not exists (select 1 from audit_events b
                                    where b.subject_type = a.subject_type and b.subject_id = a.subject_id and b.previous_hash = a.hash)
                  order by a.created_at desc limit 1) as hash) head`;
  // In the caller's transaction the lock is held until its commit; outside one, a transaction of its own.
  const run = (tx: Db) => Promise.all([tx.execute(lock), tx.execute(append)]);
  if (is(db, PgTransaction)) await run(db);
  else await db.transaction(run);
}
