import { and, eq, isNull } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { apiKeys, invites, memberships, roles, users } from "@/server/db/schema";
import type { TActor } from "@/server/domain/access/actor";
import { auditChange } from "@/server/domain/audit/audit-change";
import { errors } from "@/server/lib/errors";
import { now } from "@/server/lib/clock";
import { hashPassword, randomToken, sha256Hex } from "@/server/lib/crypto";
import { newId } from "@/server/lib/ids";
import { type TAddedMember, type TAddMember } from "./schemas";
import { isUniqueViolation } from "./unique-violation";

export const INVITE_TTL_MS = 7 * 24 * 60 * 60 * 1000;

/**
 * Adds a member with a role (owner only: declared by the operation). An email of a removed member is re-admitted as a fresh start: the
 * keys they had issued here are revoked in the same transaction, so re-adding them cannot bring those keys
 * back to life. An email of a current member (409) or of another organisation's user (409) is refused.
 * The check runs first for the message; two concurrent adds of the same new email both pass it, and the
 * loser's insert then hits the unique index on users.email (or on the membership): that is a 409 as well.
 */
export async function addMember(db: Db, actor: TActor, input: TAddMember): Promise<TAddedMember> {
  const passwordHash = input.method === "password" ? await hashPassword(input.password) : null;
  const orgId = actor.organisation.id;
  try {
    return await insertMember(db, actor, input, passwordHash);
  } catch (err) {
    if (isUniqueViolation(err)) throw await emailConflict(db, orgId, input.email);
    throw err;
  }
}

async function emailConflict(db: Db, orgId: string, email: string) {
  const [member] = await db
    .select({ id: memberships.id })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(and(eq(users.email, email), eq(memberships.organisationId, orgId)));
  return errors.conflict(member ? "This person is already a member" : "This email belongs to a user of another organisation");
}

async function insertMember(db: Db, actor: TActor, input: TAddMember, passwordHash: string | null): Promise<TAddedMember> {
  const orgId = actor.organisation.id;
  return db.transaction(async (tx) => {
    const [role] = await tx
      .select({ id: roles.id })
      .from(roles)
      .where(and(eq(roles.id, input.roleId), eq(roles.organisationId, orgId)));
    if (!role) throw errors.validation({ roleId: ["Choose a role of this organisation"] });
    const at = now();
    const [existing] = await tx.select().from(users).where(eq(users.email, input.email)).for("update");
    let userId: string;
    if (!existing) {
      userId = newId("usr");
      await tx.insert(users).values({ id: userId, email: input.email, name: input.name, passwordHash, createdAt: at });
    } else if (existing.deletedAt) {
      userId = existing.id;
      await tx.update(users).set({ name: input.name, passwordHash, deletedAt: null }).where(eq(users.id, userId));
      await tx.delete(invites).where(eq(invites.userId, userId));
      await tx
        .update(apiKeys)
        .set({ revokedAt: at })
        .where(and(eq(apiKeys.issuedByUserId, userId), eq(apiKeys.organisationId, orgId), isNull(apiKeys.revokedAt)));
    } else {
      throw await emailConflict(tx, orgId, input.email);
    }
    await tx.insert(memberships).values({ id: newId("mem"), organisationId: orgId, userId, roleId: role.id, isOwner: false, createdAt: at });
    let invite: TAddedMember["invite"] = null;
    if (input.method === "invite") {
      const token = randomToken();
      const expiresAt = new Date(at.getTime() + INVITE_TTL_MS);
      await tx.insert(invites).values({ id: newId("inv"), userId, tokenHash: sha256Hex(token), expiresAt, createdAt: at });
      invite = { path: `/invite/${token}`, expiresAt };
    }
    await auditChange(tx, actor, { id: userId, organisationId: orgId, workspaceId: null }, "member.added", {
      email: input.email,
      roleId: role.id,
      method: input.method,
      readmitted: Boolean(existing),
    });
    return { userId, invite };
  });
}
