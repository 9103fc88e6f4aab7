import { and, eq, gt, isNull, sql } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { recipientAuthCodes, recipientSessions } from "@/server/db/schema";
import { auditChange } from "@/server/domain/audit/audit-change";
import { MAX_AUTH_ATTEMPTS } from "@/server/domain/packages/recipient-authentication";
import { withEvents } from "@/server/domain/transaction";
import { now } from "@/server/lib/clock";
import { hexEqual, verifyPassword } from "@/server/lib/crypto";
import { errors } from "@/server/lib/errors";
import { findSigningSession } from "./find-signing-session";
import { lockSignerCheck } from "./lock-signer-check";
import type { TSignerCode, TSigningRequest } from "./schemas";
import { emailCodeHash, LOCKED_MESSAGE } from "./send-signer-email-code";
import { signerCookieName, signerCookieValue } from "./signer-pass";

type TOutcome = { kind: "passed"; cookie: { name: string; value: string } } | { kind: "wrong"; attemptsLeft: number } | { kind: "locked" };

/**
 * The signer check (docs/decisions/signer-authentication.md): the access code (scrypt, compared in constant time)
 * or an unexpired, unused email code (HMAC, compared in constant time, then used up). Every try is decided
 * under the package lock (lock-signer-check.ts) and counted in `auth_failed_attempts` in the same
 * transaction, so parallel tries on any replica each count; the 5th wrong try locks the session, and while
 * it is locked every try (even the right code) is refused and counted. Right: the count starts again, and the
 * answer carries the signer cookie for this browser. Wrong: 422 at `code` with the tries left; locked: 409.
 * Audit: `recipient.authentication.passed`, `.failed`, `.locked` — with the address and user agent, never a code.
 */
export async function checkSignerCode(db: Db, request: TSigningRequest, input: TSignerCode): Promise<{ cookie: { name: string; value: string } }> {
  const { session: found, recipient } = await findSigningSession(db, request, { beforeSignerCheck: true });
  // scrypt is slow by design: verified before the lock, and again under it only if the code changed meanwhile.
  const accessCodeHash = found.accessCodeHash;
  const accessOk = found.authMethod === "ACCESS_CODE" && accessCodeHash ? await verifyPassword(input.code, accessCodeHash) : false;
  const outcome = await withEvents(db, async (tx): Promise<TOutcome> => {
    const { pkg, session } = await lockSignerCheck(tx, found.id);
    if (session.authMethod === "NONE") throw errors.conflict("This signing link needs no code");
    const at = now();
    const audit = { email: session.email, method: session.authMethod, userAgent: recipient.userAgent };
    let right = false;
    if (!session.authLockedAt) {
      if (session.authMethod === "ACCESS_CODE") {
        right =
          session.accessCodeHash === accessCodeHash ? accessOk : session.accessCodeHash !== null && (await verifyPassword(input.code, session.accessCodeHash));
      } else {
        const hash = emailCodeHash(session.id, input.code);
        const live = await tx
          .select({ id: recipientAuthCodes.id, codeHash: recipientAuthCodes.codeHash })
          .from(recipientAuthCodes)
          .where(and(eq(recipientAuthCodes.sessionId, session.id), isNull(recipientAuthCodes.usedAt), gt(recipientAuthCodes.expiresAt, at)));
        // Every live code is compared (no early exit), each in constant time.
        const match = live.filter((c) => hexEqual(c.codeHash, hash))[0];
        if (match) {
          await tx.update(recipientAuthCodes).set({ usedAt: at }).where(eq(recipientAuthCodes.id, match.id));
          right = true;
        }
      }
    }
    if (right) {
      const [passed] = await tx
        .update(recipientSessions)
        .set({ authFailedAttempts: 0, authPassedAt: at, updatedAt: at })
        .where(eq(recipientSessions.id, session.id))
        .returning();
      await auditChange(tx, recipient, pkg, "recipient.authentication.passed", audit);
      return { kind: "passed", cookie: { name: signerCookieName(passed!.id), value: signerCookieValue(passed!) } };
    }
    const [counted] = await tx
      .update(recipientSessions)
      .set({ authFailedAttempts: sql`${recipientSessions.authFailedAttempts} + 1`, updatedAt: at })
      .where(eq(recipientSessions.id, session.id))
      .returning({ attempts: recipientSessions.authFailedAttempts });
    const attempts = counted!.attempts;
    const attemptsLeft = Math.max(0, MAX_AUTH_ATTEMPTS - attempts);
    await auditChange(tx, recipient, pkg, "recipient.authentication.failed", { ...audit, attempts, attemptsLeft, locked: session.authLockedAt !== null });
    if (session.authLockedAt) return { kind: "locked" };
    if (attempts >= MAX_AUTH_ATTEMPTS) {
      await tx.update(recipientSessions).set({ authLockedAt: at }).where(eq(recipientSessions.id, session.id));
      await auditChange(tx, recipient, pkg, "recipient.authentication.locked", { ...audit, attempts });
      return { kind: "locked" };
    }
    return { kind: "wrong", attemptsLeft };
  });
  if (outcome.kind === "locked") throw errors.conflict(LOCKED_MESSAGE);
  if (outcome.kind === "wrong") {
    throw errors.validation({ code: [`Wrong or expired code: ${outcome.attemptsLeft} ${outcome.attemptsLeft === 1 ? "try" : "tries"} left`] }, "Wrong code");
  }
  return { cookie: outcome.cookie };
}
