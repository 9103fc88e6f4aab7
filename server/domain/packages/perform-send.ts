import { eq, sql } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { builtWrite, valueSlot } from "@/server/db/driver";
import { rowsFromJson } from "@/server/db/json-rows";
import { documents, organisations, packages, recipientSessions, users, workspaces } from "@/server/db/schema";
import { liveLockJson, lockFromJson, refuseLocked } from "@/server/domain/locks/assert-not-locked";
import { now } from "@/server/lib/clock";
import { errors } from "@/server/lib/errors";
import { checkRecipientLimit } from "./assert-recipient-limit";
import { auditChange } from "@/server/domain/audit/audit-change";
import { consumePackageCredit } from "./consume-package-credit";
import type { TPackageRow } from "./find-package";
import { inviteSession, type TSessionRow } from "./invite-session";
import { mailPackageOf } from "./load-mail-package";
import { isServiceActor, type TPackageActor } from "./package-actor";
import { recordPackageEvent } from "./record-package-event";

/**
 * What the send leaves: the package, and its documents and sessions as they stand after the send (the caller's
 * view is built from them without reading them again, issue 26).
 */
export type TSendOutcome = { package: TPackageRow; scheduled: boolean; sessions: TSessionRow[]; documents: TDocumentRow[] };
type TDocumentRow = typeof documents.$inferSelect;
type TJsonRows = Record<string, unknown>[] | null;
/**
 * A package created in the caller's transaction (create-and-send): the document and session rows its inserts
 * returned, so the send does not read them again, nor the recipient limit the create just checked (issue 26).
 */
export type TCreatedRows = { documents: TDocumentRow[]; sessions: TSessionRow[] };

/** The package goes out: built once and prepared (server/db/driver/prepared.ts, `builtWrite`; issue 26). */
const markSent = builtWrite<{ id: string; at: Date }, TPackageRow>("send: package IN_PROGRESS", (db) =>
  db
    .update(packages)
    .set({ status: "IN_PROGRESS", sentAt: valueSlot<Date>("at"), sendAt: null, scheduleError: null, updatedAt: valueSlot<Date>("at") })
    .where(eq(packages.id, sql.placeholder("id")))
    .returning(),
);

/**
 * The send, inside the caller's transaction, on a package row the caller found and locked. The conditions
 * in a fixed order (each one's status is the spec's):
 *   state (400) → documents (409) → edit lock (409) → sender questions (400) → recipients (400, plan 402)
 *   → expiry (422 at expiresAt) → [a future `sendAt` schedules here] → credit (402, taken last: below).
 * Then IN_PROGRESS, PACKAGE_SENT, and SESSION_SENT for every session whose turn it is (sequential: the first;
 * parallel: all). A SCHEDULED package may be sent too: by the scheduler when due, or by a member "now".
 * Scheduling does not charge: the credit is taken when the package actually goes out.
 *
 * `finish` runs inside the transaction once the send's writes are done (the caller's answer: the package view);
 * the credit is taken AFTER it, as the last statement before the caller's commit. The credit is a conditional
 * UPDATE of the organisation's row, whose lock every send of the organisation needs: taken early (it was
 * statement 6 of 23) it made each send hold that lock through the rest of its transaction, so concurrent sends
 * queued on it (issue 26: 5.4–7 of 10 connections waiting at 16 concurrent sends). Taken last it is held for
 * the commit only — and on PostgreSQL, in the send's own transaction, the credit is sent WITH the COMMIT
 * (`consumePackageCredit`, `endWithCommit`): no trip through this process between them. A refused credit (402)
 * still rolls back everything before it (there, the transaction throws it after PostgreSQL rolled back).
 */
export async function performSend<T>(
  tx: Db,
  actor: TPackageActor,
  pkg: TPackageRow,
  sendAt: Date | undefined,
  finish: (outcome: TSendOutcome) => T | Promise<T>,
  created?: TCreatedRows,
): Promise<T> {
  const at = now();
  if (pkg.status !== "DRAFT" && pkg.status !== "SCHEDULED") throw errors.badRequest("Only DRAFT packages can be sent");
  // The workspace's mode, held FOR SHARE to the commit: a test-mode switch (FOR UPDATE) waits for this send and
  // then sees the sent package (409), so a sent package's mail, allowance and seal never change mode.
  // In the same statement (issue 26: it was six): the documents, the sessions in order, the edit lock, the
  // organisation's recipient limit and the owner the mail is sent as.
  const [state] = await tx
    .select({
      isTest: workspaces.isTest,
      documents: created ? sql<null>`null` : sql<TJsonRows>`(select json_agg(d order by d.position) from ${documents} d where d.package_id = ${pkg.id})`,
      sessions: created ? sql<null>`null` : sql<TJsonRows>`(select json_agg(s order by s.position) from ${recipientSessions} s where s.package_id = ${pkg.id})`,
      lock: liveLockJson({ type: "package", id: pkg.id }),
      maxRecipients: sql<number | null>`(select o.max_recipients_per_package from ${organisations} o where o.id = ${pkg.organisationId})`,
      owner: sql<{
        id: string;
        email: string;
        name: string;
      } | null>`(select json_build_object('id', u.id, 'email', u.email, 'name', u.name) from ${users} u where u.id = ${pkg.ownerUserId})`,
    })
    .from(workspaces)
    .where(eq(workspaces.id, pkg.workspaceId))
    .for("share");
  if (!state?.owner) throw new Error(`package ${pkg.id} has no workspace or owner row`);

  const docs = created?.documents ?? rowsFromJson(documents, state.documents);
  if (docs.length === 0) throw errors.conflict("The package has no document: add one before sending");
  if (docs.some((d) => d.uploadState !== "UPLOADED" || d.contentType !== "application/pdf")) {
    throw errors.conflict("Every document must be uploaded (and a DOCX converted to PDF) before sending");
  }

  const lock = lockFromJson(state.lock);
  if (isServiceActor(actor)) {
    if (lock) throw errors.conflict(`${lock.name} (${lock.email}) is editing this package in the app`);
  } else {
    refuseLocked(lock, actor, { type: "package", id: pkg.id });
  }

  const unanswered = pkg.questions.find((q) => q.required && !(pkg.answers[q.key] ?? "").trim());
  if (unanswered) throw errors.badRequest(`The template's sender question is unanswered: ${unanswered.label}`);

  const sessions = created ? [...created.sessions].sort((a, b) => a.position - b.position) : rowsFromJson(recipientSessions, state.sessions);
  if (sessions.length === 0) throw errors.badRequest("The package has no recipient: add one before sending");
  // A package created in this transaction was checked against the limit, with these sessions, by its creator.
  if (!created) checkRecipientLimit(state.maxRecipients, sessions.length);

  if (pkg.expiresAt && pkg.expiresAt.getTime() <= at.getTime()) {
    throw errors.validation({ expiresAt: ["The expiry date has passed; move it before sending"] });
  }

  if (sendAt && sendAt.getTime() > at.getTime()) {
    const [scheduled] = await tx
      .update(packages)
      .set({ status: "SCHEDULED", sendAt, scheduleError: null, updatedAt: at })
      .where(eq(packages.id, pkg.id))
      .returning();
    await recordPackageEvent(tx, scheduled!, "PACKAGE_SCHEDULED", { scheduledAt: sendAt.toISOString() });
    await auditChange(tx, actor, scheduled!, "package.scheduled", { sendAt: sendAt.toISOString() });
    return finish({ package: scheduled!, scheduled: true, sessions, documents: docs });
  }

  const [sent] = await markSent(tx, { id: pkg.id, at });
  const turn = sent!.sequential ? sessions.slice(0, 1) : sessions;
  await recordPackageEvent(tx, sent!, "PACKAGE_SENT", { signerCount: sessions.length, sessionsSent: turn.length });
  const invited = new Map<string, TSessionRow>();
  const mailPackage = mailPackageOf(sent!, state.owner);
  for (const session of turn) invited.set(session.id, (await inviteSession(tx, sent!, session, at, mailPackage)).session);
  await auditChange(tx, actor, sent!, "package.sent", { signerCount: sessions.length, sessionsSent: turn.length });
  const after = sessions.map((s) => invited.get(s.id) ?? s);
  const result = await finish({ package: sent!, scheduled: false, sessions: after, documents: docs });
  // A test workspace's send consumes no allowance (docs/decisions/test-mode.md).
  if (!state.isTest) await consumePackageCredit(tx, pkg.organisationId);
  return result;
}
