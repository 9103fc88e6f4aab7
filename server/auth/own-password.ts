/**
 * The signed-in member's own password, checked again for the changes that need it — a new password
 * (docs/decisions/passwords.md), handing the organisation to another member — beside the sign-in, whose throttle
 * it shares.
 */
import type { Db } from "@/server/db/client";
import { users } from "@/server/db/schema";
import { eq } from "drizzle-orm";
import type { TActor } from "@/server/domain/access/actor";
import { auditChange } from "@/server/domain/audit/audit-change";
import { setPassword } from "@/server/domain/organisation/passwords";
import type { TChangePassword } from "@/server/domain/organisation/schemas";
import { throttledMessage } from "@/common/sign-in-throttled";
import { errors } from "@/server/lib/errors";
import { hashPassword, verifyPassword } from "@/server/lib/crypto";
import { claimSignInAttempt, signInSucceeded } from "./sign-in-throttle";
import { throttledSeconds } from "./sign-in-throttled";

export const WRONG_PASSWORD = "This is not your current password";
export const SAME_PASSWORD = "Choose a password other than your current one";

/**
 * Checks the signed-in member's own password before a change that needs it (their new password, handing the
 * organisation over): a wrong one is 422 at `field` and counts as a failed sign-in for the member's email from
 * this address (sign-in-throttle.ts), so a borrowed session cannot be used to guess it; once throttled, 429
 * before the password is checked.
 */
export async function confirmOwnPassword(db: Db, actor: TActor, password: string, field: string): Promise<void> {
  const source = { email: actor.user.email, clientAddress: actor.clientAddress };
  const claim = await claimSignInAttempt(db, source);
  if (!claim.ok) {
    const seconds = throttledSeconds(claim.retryAfterMs);
    throw errors.rateLimited(seconds, throttledMessage(seconds));
  }
  const [user] = await db.select({ passwordHash: users.passwordHash }).from(users).where(eq(users.id, actor.user.id));
  if (!user?.passwordHash || !(await verifyPassword(password, user.passwordHash))) {
    throw errors.validation({ [field]: [WRONG_PASSWORD] });
  }
  await signInSucceeded(db, source);
}

/**
 * The signed-in member's new password, once the current one is confirmed (confirmOwnPassword). Every other
 * session of the member is signed out (the caller signs this one in again with the new password).
 */
export async function changeOwnPassword(db: Db, actor: TActor, input: TChangePassword): Promise<{ changed: true }> {
  await confirmOwnPassword(db, actor, input.currentPassword, "currentPassword");
  if (input.newPassword === input.currentPassword) throw errors.validation({ newPassword: [SAME_PASSWORD] });
  const passwordHash = await hashPassword(input.newPassword);
  return db.transaction(async (tx) => {
    await setPassword(tx, actor.user.id, passwordHash);
    await auditChange(tx, actor, { id: actor.user.id, organisationId: actor.organisation.id, workspaceId: null }, "member.password_changed");
    return { changed: true as const };
  });
}
