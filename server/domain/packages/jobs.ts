/**
 * The packages scheduler as declared jobs (server/lib/jobs.ts; run by the worker, see server/jobs/README.md).
 * The state is the schedule:
 * - send-scheduled-packages: a SCHEDULED package whose `send_at` has passed is sent by the service. When the
 *   send is refused (no credit, a document missing, an edit lock, expiry passed…) the package goes back to
 *   DRAFT with `schedule_error` = the refusal's message and an audit event, and no webhook event (the spec's
 *   fifteen events have none for it): integrators read `scheduleError` on GET /packages/{id}.
 * - expire-packages: an IN_PROGRESS or ON_HOLD package whose `expires_at` has passed becomes VOID with
 *   `expiredAt`: PACKAGE_EXPIRED, then SESSION_CANCELLED per open session. Drafts and scheduled packages are
 *   never due (a scheduled one past expiry is refused at its send, above), and neither is a package whose last
 *   recipient has finished (`seal_requested_at` set): everyone signed before the deadline, so it is sealed and
 *   completed, however long sealing takes or retries. The expiry notice goes to the owner and to those invited
 *   who had not finished, in the same transaction.
 * - remind-sessions: an open session (SENT/OPENED) of an IN_PROGRESS package whose `next_reminder_at` has
 *   passed and that has had fewer than `reminders.max` automatic reminders: SESSION_REMINDED (automatic).
 *   Never while ON_HOLD (resume moves `next_reminder_at` later by the time on hold). The reminder mail is queued
 *   in the same transaction, with the invitation's link.
 * - fold-package-counts: the deltas the triggers on `packages` append (schema: `packageCounts`) are folded
 *   into the per-workspace counters, a batch per transaction, so the list's `totalCount` sums a few rows. The
 *   count is exact without it (readers add the deltas not folded yet); folding keeps that sum short.
 */
import { and, asc, eq, inArray, isNull, lte, notInArray, sql } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { packageCountDeltas, packageCounts, packages, recipientSessions } from "@/server/db/schema";
import { queuePackageMail } from "@/server/domain/mail/queue-package-mail";
import { AppError } from "@/server/lib/errors";
import { defineJob, type TDueItem } from "@/server/lib/jobs";
import { logger } from "@/server/lib/logger";
import { auditChange } from "@/server/domain/audit/audit-change";
import { cancelOpenSessions, OPEN_SESSION_STATUSES } from "./cancel-open-sessions";
import { forgetSigningTokens } from "./forget-signing-tokens";
import { loadMailPackage } from "./load-mail-package";
import { mailSigningToken } from "./mail-signing-token";
import { serviceActor } from "./package-actor";
import { recordPackageEvent } from "./record-package-event";
import { recordSessionEvent } from "./record-session-event";
import { sendPackage } from "./send-package";

const DAY_MS = 24 * 60 * 60 * 1000;
/** Deltas folded per transaction. */
const FOLD_BATCH = 5000;

type TDuePackage = TDueItem & { organisationId: string; workspaceId: string };

/** Locks one due package (oldest first), skipping those another worker holds and those the runner skips. */
async function lockDuePackage(tx: Db, where: ReturnType<typeof and>, orderBy: typeof packages.sendAt | typeof packages.expiresAt, skip: readonly string[]) {
  const [row] = await tx
    .select({ id: packages.id, organisationId: packages.organisationId, workspaceId: packages.workspaceId })
    .from(packages)
    .where(and(where, isNull(packages.deletedAt), notInArray(packages.id, [...skip])))
    .orderBy(asc(orderBy), asc(packages.id))
    .limit(1)
    .for("update", { skipLocked: true });
  return row;
}

export function packageJobs() {
  return {
    foldCounts: defineJob<TDueItem & { ids: number[] }>({
      name: "fold-package-counts",
      everyMs: 10_000,
      async due(tx, { skip }) {
        // Locked, so two workers never fold the same delta; a writer's uncommitted delta is not seen at all.
        const rows = await tx
          .select({ id: packageCountDeltas.id })
          .from(packageCountDeltas)
          .where(notInArray(packageCountDeltas.id, skip.map(Number)))
          .orderBy(asc(packageCountDeltas.id))
          .limit(FOLD_BATCH)
          .for("update", { skipLocked: true });
        return rows[0] ? { id: String(rows[0].id), ids: rows.map((r) => r.id) } : undefined;
      },
      async handle(tx, batch) {
        const moved = await tx.delete(packageCountDeltas).where(inArray(packageCountDeltas.id, batch.ids)).returning();
        const sums = new Map<string, typeof packageCounts.$inferInsert>();
        for (const d of moved) {
          const key = JSON.stringify([d.workspaceId, d.status, d.viewed]);
          const sum = sums.get(key) ?? { workspaceId: d.workspaceId, status: d.status, viewed: d.viewed, n: 0 };
          sum.n += d.delta;
          sums.set(key, sum);
        }
        // Sorted, so two workers folding into the same counters take their row locks in one order (no deadlock).
        const values = [...sums.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, v]) => v);
        if (values.length === 0) return;
        await tx
          .insert(packageCounts)
          .values(values)
          .onConflictDoUpdate({
            target: [packageCounts.workspaceId, packageCounts.status, packageCounts.viewed],
            // The fold's own transaction id: a search count taken before this fold is re-checked (search-count-cache.ts).
            set: { n: sql`${packageCounts.n} + excluded.n`, foldedXid: sql`pg_current_xact_id()` },
          });
      },
    }),

    sendScheduled: defineJob<TDuePackage>({
      name: "send-scheduled-packages",
      due: (tx, { at, skip }) => lockDuePackage(tx, and(eq(packages.status, "SCHEDULED"), lte(packages.sendAt, at)), packages.sendAt, skip),
      async handle(tx, item, { at }) {
        const actor = serviceActor(item.organisationId, item.workspaceId);
        try {
          // A savepoint: a refused send rolls back alone, and the package's return to DRAFT commits instead.
          await sendPackage(tx, actor, { packageId: item.id });
        } catch (err) {
          // An unexpected error is the runner's (rolled back, stays due, retried later); a refusal is the package's.
          if (!(err instanceof AppError)) throw err;
          const detail = Object.values(err.details ?? {}).flat()[0];
          const reason = detail ? `${err.message}: ${detail}` : err.message;
          const [back] = await tx
            .update(packages)
            .set({ status: "DRAFT", sendAt: null, scheduleError: reason, updatedAt: at })
            .where(eq(packages.id, item.id))
            .returning();
          await auditChange(tx, actor, back!, "package.schedule_failed", { error: reason, status: err.status });
          logger().info({ packageId: item.id, error: reason }, "scheduled send refused; the package is a DRAFT again");
        }
      },
    }),

    expire: defineJob<TDuePackage>({
      name: "expire-packages",
      due: (tx, { at, skip }) =>
        lockDuePackage(
          tx,
          and(inArray(packages.status, ["IN_PROGRESS", "ON_HOLD"]), lte(packages.expiresAt, at), isNull(packages.sealRequestedAt)),
          packages.expiresAt,
          skip,
        ),
      async handle(tx, item, { at }) {
        const [expired] = await tx
          .update(packages)
          .set({ status: "VOID", expiredAt: at, holdStartedAt: null, updatedAt: at })
          .where(eq(packages.id, item.id))
          .returning();
        await recordPackageEvent(tx, expired!, "PACKAGE_EXPIRED", {});
        // The notice: the owner, and those invited who had not finished (the sessions cancelled next).
        const unfinished = await tx
          .select()
          .from(recipientSessions)
          .where(and(eq(recipientSessions.packageId, item.id), inArray(recipientSessions.status, [...OPEN_SESSION_STATUSES])))
          .orderBy(asc(recipientSessions.position));
        await queuePackageMail(tx, {
          kind: "EXPIRED",
          pkg: await loadMailPackage(tx, expired!),
          expiredAt: at,
          recipients: unfinished.map((s) => ({ sessionId: s.id, email: s.email, name: s.name })),
        });
        const cancelled = await cancelOpenSessions(tx, expired!, at);
        await forgetSigningTokens(tx, item.id);
        await auditChange(tx, serviceActor(item.organisationId, item.workspaceId), expired!, "package.expired", { sessionsCancelled: cancelled });
      },
    }),

    remind: defineJob<TDueItem & { packageId: string }>({
      name: "remind-sessions",
      async due(tx, { at, skip }) {
        // The package row is locked too (every transition of a package takes its lock first), so a void or a
        // signature never runs into a half-made reminder; either row held elsewhere → skipped until later.
        const [row] = await tx
          .select({ id: recipientSessions.id, packageId: recipientSessions.packageId })
          .from(recipientSessions)
          .innerJoin(packages, eq(packages.id, recipientSessions.packageId))
          .where(
            and(
              inArray(recipientSessions.status, [...OPEN_SESSION_STATUSES]),
              lte(recipientSessions.nextReminderAt, at),
              eq(packages.status, "IN_PROGRESS"),
              isNull(packages.deletedAt),
              sql`${recipientSessions.remindersSent} < coalesce((${packages.reminders} ->> 'max')::int, 0)`,
              notInArray(recipientSessions.id, [...skip]),
            ),
          )
          .orderBy(asc(recipientSessions.nextReminderAt), asc(recipientSessions.id))
          .limit(1)
          .for("update", { of: [packages, recipientSessions], skipLocked: true });
        return row;
      },
      async handle(tx, item, { at }) {
        const [pkg] = await tx.select().from(packages).where(eq(packages.id, item.packageId));
        const [session] = await tx.select().from(recipientSessions).where(eq(recipientSessions.id, item.id));
        const reminders = pkg!.reminders!;
        const sent = session!.remindersSent + 1;
        const next = sent < reminders.max && reminders.repeatEveryDays > 0 ? new Date(at.getTime() + reminders.repeatEveryDays * DAY_MS) : null;
        await tx.update(recipientSessions).set({ remindersSent: sent, nextReminderAt: next, updatedAt: at }).where(eq(recipientSessions.id, item.id));
        await recordSessionEvent(tx, pkg!, session!, "SESSION_REMINDED", { trigger: "automatic" });
        await queuePackageMail(tx, {
          kind: "REMINDER",
          pkg: await loadMailPackage(tx, pkg!),
          recipient: { sessionId: session!.id, email: session!.email, name: session!.name },
          token: await mailSigningToken(tx, session!, at, "reminder"),
        });
        await auditChange(tx, serviceActor(pkg!.organisationId, pkg!.workspaceId), pkg!, "package.reminded", {
          trigger: "automatic",
          sessionIds: [item.id],
          remindersSent: sent,
        });
      },
    }),
  };
}
