import { and, eq, gt, isNull } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { invites, memberships, users } from "@/server/db/schema";
import { auditChange } from "@/server/domain/audit/audit-change";
import { errors } from "@/server/lib/errors";
import { now } from "@/server/lib/clock";
import { hashPassword, sha256Hex } from "@/server/lib/crypto";
import { type TAcceptedInvite, type TAcceptInvite } from "./schemas";

const invalid = errors.inviteInvalid;

/** The pending invite a token names (for the page that accepts it), or 404 when it cannot be used. */
export async function getInvite(db: Db, token: string): Promise<{ email: string; name: string; expiresAt: Date }> {
  const [row] = await db
    .select({ email: users.email, name: users.name, expiresAt: invites.expiresAt })
    .from(invites)
    .innerJoin(users, eq(users.id, invites.userId))
    .where(and(eq(invites.tokenHash, sha256Hex(token)), isNull(invites.usedAt), gt(invites.expiresAt, now()), isNull(users.deletedAt)));
  if (!row) throw invalid();
  return row;
}

/**
 * Uses a one-time invite link: sets the member's password (and name, if given). There is no session yet, so
 * no actor: the token is the credential. It works once, within 7 days, and only while the member was not
 * removed; the conditional update makes two simultaneous uses succeed once.
 */
export async function acceptInvite(db: Db, input: TAcceptInvite): Promise<TAcceptedInvite> {
  const passwordHash = await hashPassword(input.password);
  return db.transaction(async (tx) => {
    const at = now();
    const [used] = await tx
      .update(invites)
      .set({ usedAt: at })
      .where(and(eq(invites.tokenHash, sha256Hex(input.token)), isNull(invites.usedAt), gt(invites.expiresAt, at)))
      .returning({ userId: invites.userId });
    if (!used) throw invalid();
    const [user] = await tx
      .update(users)
      .set({ passwordHash, ...(input.name ? { name: input.name } : {}) })
      .where(and(eq(users.id, used.userId), isNull(users.deletedAt)))
      .returning({ id: users.id, email: users.email });
    const [membership] = await tx.select({ orgId: memberships.organisationId }).from(memberships).where(eq(memberships.userId, used.userId));
    if (!user || !membership) throw invalid();
    await auditChange(tx, { kind: "user", userId: user.id }, { id: user.id, organisationId: membership.orgId, workspaceId: null }, "member.invite_accepted");
    return { userId: user.id, email: user.email };
  });
}
