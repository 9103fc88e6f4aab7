import type { Db } from "@/server/db/client";
import { sql } from "drizzle-orm";
import { mailMessages, workspaces, type TMailKind } from "@/server/db/schema";
import { now } from "@/server/lib/clock";
import { newId } from "@/server/lib/ids";
import type { TRenderedMail } from "./templates/render-mail";

export type TQueueMailInput = {
  organisationId: string;
  workspaceId: string;
  packageId?: string | null;
  sessionId?: string | null;
  userId?: string | null;
  kind: TMailKind;
  to: { email: string; name: string | null };
  mail: TRenderedMail;
};

/**
 * Queues one message in the CALLER's transaction, so a state change and its mail commit (or roll back)
 * together. Nothing is sent here: the mail job sends it after the commit, in a transaction of its own, so a
 * mail server that is down never blocks a package or its webhooks. Wake the worker after the commit
 * (`wakeMailWorker()`, or run the change inside `withEvents`, which wakes the same worker). A message of a test
 * workspace is marked `test` and only ever kept in the outbox.
 */
export async function queueMail(tx: Db, input: TQueueMailInput): Promise<{ id: string }> {
  const id = newId("mail");
  const at = now();
  await tx.insert(mailMessages).values({
    id,
    organisationId: input.organisationId,
    workspaceId: input.workspaceId,
    packageId: input.packageId ?? null,
    sessionId: input.sessionId ?? null,
    userId: input.userId ?? null,
    kind: input.kind,
    toEmail: input.to.email.trim(),
    toName: input.to.name?.trim() || null,
    subject: input.mail.subject,
    html: input.mail.html,
    text: input.mail.text,
    status: "QUEUED",
    // A test workspace's message is marked test here, in the same statement: it never reaches SMTP (jobs.ts).
    test: sql<boolean>`coalesce((select ${workspaces.isTest} from ${workspaces} where ${workspaces.id} = ${input.workspaceId}), false)`,
    nextAttemptAt: at,
    createdAt: at,
    updatedAt: at,
  });
  return { id };
}
