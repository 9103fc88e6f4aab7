/**
 * Passwords after first run (docs/decisions/passwords.md): a signed-in member changes their own
 * (server/auth/own-password.ts, beside the sign-in whose throttle it shares); the owner issues
 * a member a one-time link that sets a new one (accept-invite.ts uses it); the operator's command line issues the
 * same link for anyone, the owner included (server/cli). Every change raises the user's credentials version, so
 * every session that signed in before it is over (server/auth/options.ts), and drops their other pending links.
 */
import { and, eq, isNull, sql, type SQL } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { invites, memberSessions, memberships, users } from "@/server/db/schema";
import type { TActor } from "@/server/domain/access/actor";
import { auditChange, type TAuditActor } from "@/server/domain/audit/audit-change";
import { errors } from "@/server/lib/errors";
import { now } from "@/server/lib/clock";
import { randomToken, sha256Hex } from "@/server/lib/crypto";
import { newId } from "@/server/lib/ids";
import { INVITE_TTL_MS } from "./add-member";
import type { TPasswordLink } from "./schemas";

/** How long an owner's reset link works: long enough to pass on, short enough that a forgotten one dies. */
export const RESET_TTL_MS = 24 * 60 * 60 * 1000;

/** Sets a password, raises the credentials version (every session ends) and drops the user's pending links. */
export async function setPassword(tx: Db, userId: string, passwordHash: string): Promise<void> {
  await tx
    .update(users)
    .set({ passwordHash, credentialsVersion: sql`${users.credentialsVersion} + 1` })
    .where(eq(users.id, userId));
  await tx.delete(invites).where(and(eq(invites.userId, userId), isNull(invites.usedAt)));
  // The raised version ends every session already; their rows go too, so the Account page lists none of them.
  await tx.delete(memberSessions).where(eq(memberSessions.userId, userId));
}

/**
 * The owner's one-time link for a member of the organisation (404 for anyone else, or a removed member): a reset
 * (24 hours) when the member has a password — their current one keeps working until the link is used —, a new invitation (7
 * days) when they have not set one yet. Replaces the member's pending links. The owner's own password is changed
 * on the Account page (409), where the current one is asked for.
 */
export async function issuePasswordLink(db: Db, actor: TActor, userId: string): Promise<TPasswordLink> {
  if (userId === actor.user.id) throw errors.conflict("Change your own password on your Account page");
  return db.transaction(async (tx) => {
    const member = await lockLinkMember(tx, and(eq(memberships.organisationId, actor.organisation.id), eq(memberships.userId, userId)));
    if (!member) throw errors.notFound("Member");
    return insertPasswordLink(tx, actor, member);
  });
}

/** A member a link can be issued to, as lockLinkMember finds them. */
export type TLinkMember = { userId: string; organisationId: string; name: string; email: string; hasPassword: boolean };

/**
 * The member (not removed) that `where` picks, their user row locked until the transaction ends, so two links for
 * one user are issued one after the other; undefined when there is none.
 */
export async function lockLinkMember(tx: Db, where: SQL | undefined): Promise<TLinkMember | undefined> {
  const [member] = await tx
    .select({
      userId: users.id,
      organisationId: memberships.organisationId,
      name: users.name,
      email: users.email,
      hasPassword: sql<boolean>`${users.passwordHash} is not null`,
    })
    .from(users)
    .innerJoin(memberships, eq(memberships.userId, users.id))
    .where(and(where, isNull(users.deletedAt)))
    .for("update", { of: users });
  return member;
}

/**
 * A fresh one-time link in place of the member's pending ones, and its audit event (`member.password_link_issued`,
 * attributed to `issuer`): a reset when the member has a password, else a new invitation, working for `ttlMs`
 * (by default 24 hours for a reset, 7 days for an invitation). `by: "email"` is recorded for a link sent by mail.
 * Its path is returned this once, and never recorded.
 */
export async function insertPasswordLink(
  tx: Db,
  issuer: TAuditActor,
  member: Pick<TLinkMember, "userId" | "organisationId" | "hasPassword">,
  options: { ttlMs?: number; by?: "email" } = {},
): Promise<TPasswordLink> {
  const { userId } = member;
  const purpose = member.hasPassword ? "reset" : "invite";
  const at = now();
  const token = randomToken();
  const expiresAt = new Date(at.getTime() + (options.ttlMs ?? (purpose === "reset" ? RESET_TTL_MS : INVITE_TTL_MS)));
  await tx.delete(invites).where(and(eq(invites.userId, userId), isNull(invites.usedAt)));
  await tx.insert(invites).values({ id: newId("inv"), userId, tokenHash: sha256Hex(token), purpose, expiresAt, createdAt: at });
  await auditChange(tx, issuer, { id: userId, organisationId: member.organisationId, workspaceId: null }, "member.password_link_issued", {
    purpose,
    ...(options.by ? { by: options.by } : {}),
    expiresAt: expiresAt.toISOString(),
  });
  return { userId, purpose, path: `/invite/${token}`, expiresAt };
}
