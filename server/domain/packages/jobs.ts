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
 *   completed, however long sealing takes or retries.
 * - remind-sessions: an open session (SENT/OPENED) of an IN_PROGRESS package whose `next_reminder_at` has
 *   passed and that has had fewer than `reminders.max` automatic reminders: SESSION_REMINDED (automatic).
 *   Never while ON_HOLD (resume moves `next_reminder_at` later by the time on hold).
 */
import { and, asc, eq, inArray, isNull, lte, notInArray, sql } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { packages, recipientSessions } from "@/server/db/schema";
import { AppError } from "@/server/lib/errors";
import { defineJob, type TDueItem } from "@/server/lib/jobs";
import { logger } from "@/server/lib/logger";
import { auditPackageChange } from "./audit-package-change";
import { cancelOpenSessions, OPEN_SESSION_STATUSES } from "./cancel-open-sessions";
import { serviceActor } from "./package-actor";
import { recordPackageEvent } from "./record-package-event";
import { recordSessionEvent } from "./record-session-event";
import { sendPackage } from "./send-package";

const DAY_MS = 24 * 60 * 60 * 1000;

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
    sendScheduled: defineJob<TDuePackage>({
      name: "send-scheduled-packages",
      due: (tx, { at, skip }) => lockDuePackage(tx, and(eq(packages.status, "SCHEDULED"), lte(packages.sendAt, at)), packages.sendAt, skip),
      async handle(tx, item, { at }) {
        const actor = serviceActor(item.organisationId, item.workspaceId);
        try {
          // A savepoint: a refused send rolls back alone, and the package's return to DRAFT commits instead.
          await sendPackage(tx, actor, item.id);
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
          await auditPackageChange(tx, actor, back!, "package.schedule_failed", { error: reason, status: err.status });
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
        const cancelled = await cancelOpenSessions(tx, expired!, at);
        await auditPackageChange(tx, serviceActor(item.organisationId, item.workspaceId), expired!, "package.expired", { sessionsCancelled: cancelled });
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
        await auditPackageChange(tx, serviceActor(pkg!.organisationId, pkg!.workspaceId), pkg!, "package.reminded", {
          trigger: "automatic",
          sessionIds: [item.id],
          remindersSent: sent,
        });
      },
    }),
  };
}
