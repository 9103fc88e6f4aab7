import { createHash } from "node:crypto";
import { and, asc, eq } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { auditEvents } from "@/server/db/schema";

type TAuditRow = typeof auditEvents.$inferSelect;

/**
 * The head of a package's hash-chained audit trail, printed on the certificate. When the trail stores its own
 * chain (`audit_events.hash`), the head is the newest link: the event whose hash no other event names as its
 * previous — not the latest `created_at`, since events of one transaction (or of the injected clock) share an
 * instant and their ids do not order them. For a trail written before the chain existed, the head is computed
 * the same way over the events in order: SHA-256 of the previous hash and the event's canonical content, so any
 * changed or removed event changes the head.
 */
export async function auditChainHead(db: Db, packageId: string, rows?: TAuditRow[]): Promise<string> {
  const events =
    rows ??
    (await db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.subjectType, "package"), eq(auditEvents.subjectId, packageId)))
      .orderBy(asc(auditEvents.createdAt), asc(auditEvents.id)));
  const chained = events.filter((e) => e.hash);
  if (chained.length > 0) {
    const named = new Set(chained.map((e) => e.previousHash));
    // One tip on a whole chain; should the chain be forked, the newest tip (events are in time order).
    const tips = chained.filter((e) => !named.has(e.hash));
    return (tips.at(-1) ?? chained.at(-1)!).hash!;
  }
  let head = "";
  for (const e of events) {
    const content = JSON.stringify([e.id, e.action, e.actorUserId, e.apiKeyId, e.clientAddress, e.data, e.createdAt.toISOString()]);
    head = createHash("sha256").update(head).update(content).digest("hex");
  }
  return head || createHash("sha256").update("").digest("hex");
}
