import { and, eq } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { auditEvents } from "@/server/db/schema";
import { auditEventHash } from "./audit-event-hash";

export type TAuditChainCheck = {
  ok: boolean;
  /** The last event's hash when the chain is whole (what a certificate prints); null for a subject with no event. */
  head: string | null;
  /** The first event (in chain order) whose hash does not match its content, or that is not on the one line. */
  brokenAt?: string;
};

/**
 * Walks a subject's audit events from the first (no previous hash) along `previous_hash`, recomputing each
 * hash. Broken when an event's content no longer gives its hash, when two events name the same previous
 * (a fork), or when an event is off the line (its previous was removed or changed).
 */
export async function verifyAuditChain(db: Db, subjectType: string, subjectId: string): Promise<TAuditChainCheck> {
  const rows = await db
    .select()
    .from(auditEvents)
    .where(and(eq(auditEvents.subjectType, subjectType), eq(auditEvents.subjectId, subjectId)));
  if (rows.length === 0) return { ok: true, head: null };
  const byPrevious = new Map<string | null, typeof rows>();
  for (const row of rows) byPrevious.set(row.previousHash, [...(byPrevious.get(row.previousHash) ?? []), row]);

  const seen = new Set<string>();
  let previous: string | null = null;
  for (;;) {
    const next: typeof rows = byPrevious.get(previous) ?? [];
    if (next.length === 0) break;
    const row = next[0]!;
    if (next.length > 1) return { ok: false, head: null, brokenAt: next[1]!.id };
    if (row.hash !== auditEventHash(previous, row!)) return { ok: false, head: null, brokenAt: row.id };
    seen.add(row.id);
    previous = row.hash;
  }
  const off = rows.find((r) => !seen.has(r.id));
  if (off) return { ok: false, head: null, brokenAt: off.id };
  return { ok: true, head: previous };
}
