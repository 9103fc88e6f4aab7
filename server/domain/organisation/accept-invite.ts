import { and, eq, gt, isNull } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { invites, memberships, users } from "@/server/db/schema";
import { auditChange } from "@/server/domain/audit/audit-change";
import { errors } from "@/server/lib/errors";
import { now } from "@/server/lib/clock";
import { hashPassword, sha256Hex } from "@/server/lib/crypto";
import { setPassword } from "./passwords";
import { type TAcceptedInvite, type TAcceptInvite } from "./schemas";

const invalid = errors.inviteInvalid;

/** The pending link a token names (for the page that uses it: an invitation or a reset), or 404 when it cannot be used. */
export async function getInvite(db: Db, token: string): Promise<{ email: string; name: string; expiresAt: Date; purpose: "invite" | "reset" }> {
  const [row] = await db
    .select({ email: users.email, name: users.name, expiresAt: invites.expiresAt, purpose: invites.purpose })
    .from(invites)
    .innerJoin(users, eq(users.id, invites.userId))
    .where(and(eq(invites.tokenHash, sha256Hex(token)), isNull(invites.usedAt), gt(invites.expiresAt, now()), isNull(users.deletedAt)));
  if (!row) throw invalid();
  return row;
}

/**
 * Uses a one-time link: an invitation sets the member's password (and name, if given); an owner's reset link
 * (passwords.ts) sets a new one and signs out every session of the member (their credentials version is raised).
 * There is no session, so no actor: the token is the credential. It works once, within its time (7 days for an
 * invitation, 24 hours for a reset), and only while the member was not removed; the conditional update makes two
 * simultaneous uses succeed once. The member's other pending links stop working.
 */
export async function acceptInvite(db: Db, input: TAcceptInvite): Promise<TAcceptedInvite> {
  const passwordHash = await hashPassword(input.password);
  return db.transaction(async (tx) => {
    const at = now();
    const [used] = await tx
      .update(invites)
      .set({ usedAt: at })
      .where(and(eq(invites.tokenHash, sha256Hex(input.token)), isNull(invites.usedAt), gt(invites.expiresAt, at)))
      .returning({ userId: invites.userId, purpose: invites.purpose });
    if (!used) throw invalid();
    const reset = used.purpose === "reset";
    const [user] = await tx
      .select({ id: users.id, email: users.email })
      .from(users)
      .where(and(eq(users.id, used.userId), isNull(users.deletedAt)));
    const [membership] = await tx.select({ orgId: memberships.organisationId }).from(memberships).where(eq(memberships.userId, used.userId));
    if (!user || !membership) throw invalid();
    await setPassword(tx, user.id, passwordHash);
    if (input.name && !reset) await tx.update(users).set({ name: input.name }).where(eq(users.id, user.id));
    const subject = { id: user.id, organisationId: membership.orgId, workspaceId: null };
    await auditChange(tx, { kind: "user", userId: user.id }, subject, reset ? "member.password_reset" : "member.invite_accepted");
    return { userId: user.id, email: user.email, purpose: used.purpose };
  });
}
