import type { Db } from "@/server/db/client";
import { env } from "@/server/env";
import { queueMail } from "./queue-mail";
import { buildCompletedMail } from "./templates/build-completed-mail";
import { buildDeclinedMail } from "./templates/build-declined-mail";
import { buildExpiredMail } from "./templates/build-expired-mail";
import { buildInvitationMail } from "./templates/build-invitation-mail";
import { buildReminderMail } from "./templates/build-reminder-mail";
import { buildVoidedMail } from "./templates/build-voided-mail";

/** What the messages need to know about a package; the owner is the sender and gets the owner's notices. */
export type TMailPackage = {
  id: string;
  organisationId: string;
  workspaceId: string;
  title: string;
  message?: string | null;
  expiresAt?: Date | null;
  owner: { userId: string; email: string; name: string };
};

/** A recipient session; one without an email address yet gets no mail (it is skipped). */
export type TMailRecipient = { sessionId: string; email: string | null; name: string | null };

export type TPackageMail =
  /** SESSION_SENT / SESSION_REMINDED: `token` is the raw signing-link token (only its hash is stored on the session). */
  | { kind: "INVITATION" | "REMINDER"; pkg: TMailPackage; recipient: TMailRecipient; token: string }
  /** Completion: every recipient given (with their download link, or null) and the owner. */
  | { kind: "COMPLETED"; pkg: TMailPackage; recipients: (TMailRecipient & { downloadUrl: string | null })[] }
  /** A recipient declined: the owner, and the recipients given (e.g. the others already invited). */
  | { kind: "DECLINED"; pkg: TMailPackage; declinedBy: TMailRecipient; reason: string | null; recipients: TMailRecipient[] }
  /** Voided: the recipients given (those who were invited). */
  | { kind: "VOIDED"; pkg: TMailPackage; reason: string | null; recipients: TMailRecipient[] }
  /** Expired: the owner, and the recipients given (those invited who had not finished). */
  | { kind: "EXPIRED"; pkg: TMailPackage; expiredAt: Date; recipients: TMailRecipient[] };

const withEmail = <R extends TMailRecipient>(list: readonly R[]): (R & { email: string })[] =>
  list.filter((r): r is R & { email: string } => Boolean(r.email?.trim()));

/**
 * Queues the messages of one package event in the caller's transaction (see queueMail): the packages code calls
 * it next to the state change and its recordEvent, inside `withEvents`, which wakes the worker after commit.
 * Returns the ids of the queued messages.
 */
export async function queuePackageMail(tx: Db, mail: TPackageMail): Promise<string[]> {
  const { pkg } = mail;
  const base = env().publicUrl;
  const packageUrl = `${base}/packages/${encodeURIComponent(pkg.id)}`;
  const tenant = { organisationId: pkg.organisationId, workspaceId: pkg.workspaceId, packageId: pkg.id };
  const ids: string[] = [];
  const toRecipient = async (r: TMailRecipient & { email: string }, built: Parameters<typeof queueMail>[1]["mail"]) =>
    ids.push((await queueMail(tx, { ...tenant, sessionId: r.sessionId, kind: mail.kind, to: { email: r.email, name: r.name }, mail: built })).id);
  const toOwner = async (built: Parameters<typeof queueMail>[1]["mail"]) =>
    ids.push(
      (await queueMail(tx, { ...tenant, userId: pkg.owner.userId, kind: mail.kind, to: { email: pkg.owner.email, name: pkg.owner.name }, mail: built })).id,
    );

  switch (mail.kind) {
    case "INVITATION":
    case "REMINDER": {
      const [r] = withEmail([mail.recipient]);
      if (!r) break;
      const input = {
        recipientName: r.name,
        senderName: pkg.owner.name,
        packageTitle: pkg.title,
        signUrl: `${base}/sign/${encodeURIComponent(mail.token)}`,
        expiresAt: pkg.expiresAt ?? null,
      };
      await toRecipient(r, mail.kind === "INVITATION" ? buildInvitationMail({ ...input, message: pkg.message ?? null }) : buildReminderMail(input));
      break;
    }
    case "COMPLETED":
      for (const r of withEmail(mail.recipients)) {
        await toRecipient(r, buildCompletedMail({ toName: r.name, packageTitle: pkg.title, audience: "recipient", downloadUrl: r.downloadUrl }));
      }
      await toOwner(buildCompletedMail({ toName: pkg.owner.name, packageTitle: pkg.title, audience: "owner", downloadUrl: packageUrl }));
      break;
    case "DECLINED": {
      const declinedBy = { name: mail.declinedBy.name, email: mail.declinedBy.email ?? "A recipient" };
      const common = { packageTitle: pkg.title, declinedBy, reason: mail.reason };
      for (const r of withEmail(mail.recipients)) {
        await toRecipient(r, buildDeclinedMail({ ...common, toName: r.name, audience: "recipient", packageUrl: null }));
      }
      await toOwner(buildDeclinedMail({ ...common, toName: pkg.owner.name, audience: "owner", packageUrl }));
      break;
    }
    case "VOIDED":
      for (const r of withEmail(mail.recipients)) {
        await toRecipient(r, buildVoidedMail({ toName: r.name, packageTitle: pkg.title, senderName: pkg.owner.name, reason: mail.reason }));
      }
      break;
    case "EXPIRED": {
      const common = { packageTitle: pkg.title, expiredAt: mail.expiredAt, senderName: pkg.owner.name };
      for (const r of withEmail(mail.recipients)) {
        await toRecipient(r, buildExpiredMail({ ...common, toName: r.name, audience: "recipient", packageUrl: null }));
      }
      await toOwner(buildExpiredMail({ ...common, toName: pkg.owner.name, audience: "owner", packageUrl }));
      break;
    }
  }
  return ids;
}
