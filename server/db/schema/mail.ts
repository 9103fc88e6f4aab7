/**
 * Mail: every message Foliosign sends (invitations, reminders, notices, test messages), queued in the
 * caller's transaction and sent later by the worker (server/domain/mail/jobs.ts). The state is the schedule:
 * a QUEUED message whose `next_attempt_at` has passed is the mail job's due item.
 */
import { sql } from "drizzle-orm";
import { boolean, index, integer, pgTable, text } from "drizzle-orm/pg-core";
import { createdAt, id, ts, updatedAt } from "./columns";
import { tenantColumns, users } from "./organisations";
import { packages, recipientSessions } from "./packages";

/**
 * QUEUED: waiting for its (next) attempt. SENT: accepted by the SMTP server. FAILED: refused for good, or still
 * failing after the last attempt. KEPT: no SMTP server is configured, so it is kept here for the app's Mail page.
 */
export const MAIL_STATUSES = ["QUEUED", "SENT", "FAILED", "KEPT"] as const;
export type TMailStatus = (typeof MAIL_STATUSES)[number];

/** SIGNING_CODE: a signer's email code (issue 21): its body carries the code, which is redacted once delivered. */
export const MAIL_KINDS = ["INVITATION", "REMINDER", "COMPLETED", "DECLINED", "VOIDED", "EXPIRED", "TEST", "SIGNING_CODE"] as const;
export type TMailKind = (typeof MAIL_KINDS)[number];

export const MAIL_TRANSPORTS = ["smtp", "outbox"] as const;
export type TMailTransportKind = (typeof MAIL_TRANSPORTS)[number];

export const mailMessages = pgTable(
  "mail_messages",
  {
    id: id(),
    ...tenantColumns(),
    /** The package and recipient session it is about; null for a test message. Kept when they go. */
    packageId: text("package_id").references(() => packages.id, { onDelete: "set null" }),
    sessionId: text("session_id").references(() => recipientSessions.id, { onDelete: "set null" }),
    /** The member who asked for it (a test message) or is its recipient (the owner's copies); else null. */
    userId: text("user_id").references(() => users.id, { onDelete: "set null" }),
    kind: text("kind").$type<TMailKind>().notNull(),
    toEmail: text("to_email").notNull(),
    toName: text("to_name"),
    subject: text("subject").notNull(),
    html: text("html").notNull(),
    text: text("text").notNull(),
    status: text("status").$type<TMailStatus>().notNull().default("QUEUED"),
    /** Queued in a test workspace: never handed to SMTP, always KEPT in the outbox (issue 23). */
    test: boolean("test").notNull().default(false),
    /** Which transport handled it (set when handled). */
    transport: text("transport").$type<TMailTransportKind>(),
    /** SMTP attempts made so far (the outbox makes none). */
    attempts: integer("attempts").notNull().default(0),
    /** When a QUEUED message is due; null once it is finished. */
    nextAttemptAt: ts("next_attempt_at"),
    lastError: text("last_error"),
    /** The SMTP server's answer to the accepted message (e.g. "250 OK: queued as …"). */
    serverResponse: text("server_response"),
    /** When the SMTP server accepted it, or when the outbox kept it. */
    sentAt: ts("sent_at"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index("mail_messages_ws_created_idx").on(t.workspaceId, t.createdAt, t.id),
    index("mail_messages_package_idx").on(t.packageId, t.createdAt),
    index("mail_messages_due_idx")
      .on(t.nextAttemptAt)
      .where(sql`${t.status} = 'QUEUED'`),
    // Removing a recipient sets its session's mail to null (the foreign key's ON DELETE): found here, not by
    // reading every message ever sent (migration 0032; server/db/foreign-key-indexes.test.ts; npm run bench:parent-deletes).
    index("mail_messages_session_idx")
      .on(t.sessionId)
      .where(sql`${t.sessionId} is not null`),
  ],
);

export type TMailMessageRow = typeof mailMessages.$inferSelect;
