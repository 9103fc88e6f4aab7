import { randomInt } from "node:crypto";
import { and, asc, eq, gt } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { recipientAuthCodes } from "@/server/db/schema";
import { auditChange } from "@/server/domain/audit/audit-change";
import { queueMail } from "@/server/domain/mail/queue-mail";
import { buildSigningCodeMail } from "@/server/domain/mail/templates/build-signing-code-mail";
import { maskEmail } from "@/server/domain/packages/recipient-authentication";
import { withEvents } from "@/server/domain/transaction";
import { now } from "@/server/lib/clock";
import { macHex } from "@/server/lib/crypto";
import { errors } from "@/server/lib/errors";
import { newId } from "@/server/lib/ids";
import { findSigningSession } from "./find-signing-session";
import { lockSignerCheck } from "./lock-signer-check";
import type { TSigningRequest } from "./schemas";

export const EMAIL_CODE_VALID_MS = 10 * 60_000;
export const EMAIL_CODES_PER_HOUR = 5;
const HOUR_MS = 3_600_000;

export const LOCKED_MESSAGE = "This signing link is locked after too many wrong codes; ask the sender to unlock it";

/** The stored form of an email code: an HMAC bound to its session (the code itself is only in the mail). */
export function emailCodeHash(sessionId: string, code: string): string {
  return macHex("signer-email-code", `${sessionId}:${code}`);
}

/**
 * "Send me a code" (EMAIL_CODE): a new 6-digit code mailed to the recipient's address, valid 10 minutes, single
 * use; at most 5 an hour per recipient, counted from the stored codes under the package lock (429 beyond, with
 * Retry-After). Older unexpired codes keep working. Audit `recipient.authentication.requested`.
 */
export async function sendSignerEmailCode(db: Db, request: TSigningRequest): Promise<{ sentAt: string; to: string }> {
  const { session: found, recipient } = await findSigningSession(db, request, { beforeSignerCheck: true });
  return withEvents(db, async (tx) => {
    const { pkg, session } = await lockSignerCheck(tx, found.id);
    if (session.authMethod !== "EMAIL_CODE") throw errors.conflict("This recipient does not sign with an email code");
    if (session.authLockedAt) throw errors.conflict(LOCKED_MESSAGE);
    if (!session.email) throw errors.conflict("This recipient has no email address yet");
    const at = now();
    const recent = await tx
      .select({ createdAt: recipientAuthCodes.createdAt })
      .from(recipientAuthCodes)
      .where(and(eq(recipientAuthCodes.sessionId, session.id), gt(recipientAuthCodes.createdAt, new Date(at.getTime() - HOUR_MS))))
      .orderBy(asc(recipientAuthCodes.createdAt));
    if (recent.length >= EMAIL_CODES_PER_HOUR) {
      const retryMs = recent[recent.length - EMAIL_CODES_PER_HOUR]!.createdAt.getTime() + HOUR_MS - at.getTime();
      const minutes = Math.max(1, Math.ceil(retryMs / 60_000));
      throw errors.rateLimited(
        Math.max(1, Math.ceil(retryMs / 1000)),
        `At most ${EMAIL_CODES_PER_HOUR} codes an hour: try again in ${minutes} minute${minutes === 1 ? "" : "s"}`,
      );
    }
    const code = String(randomInt(0, 1_000_000)).padStart(6, "0");
    await tx.insert(recipientAuthCodes).values({
      id: newId("sac"),
      sessionId: session.id,
      codeHash: emailCodeHash(session.id, code),
      sentTo: session.email,
      expiresAt: new Date(at.getTime() + EMAIL_CODE_VALID_MS),
      createdAt: at,
    });
    await queueMail(tx, {
      organisationId: pkg.organisationId,
      workspaceId: pkg.workspaceId,
      packageId: pkg.id,
      sessionId: session.id,
      kind: "SIGNING_CODE",
      to: { email: session.email, name: session.name },
      mail: buildSigningCodeMail({ recipientName: session.name, packageTitle: pkg.title, code, validMinutes: EMAIL_CODE_VALID_MS / 60_000 }),
    });
    const to = maskEmail(session.email)!;
    await auditChange(tx, recipient, pkg, "recipient.authentication.requested", {
      email: session.email,
      method: session.authMethod,
      to,
      userAgent: recipient.userAgent,
    });
    return { sentAt: at.toISOString(), to };
  });
}
