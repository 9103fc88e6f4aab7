/**
 * The actor behind a signed-in session: read on every request, so removing a member, deleting a user or
 * changing a role or plan takes effect at once instead of when the session's JWT expires. Null when the user
 * may no longer act. The workspace is the member's choice (the switcher's cookie) when it belongs to their
 * organisation, otherwise the default one — a stale or forged choice never reaches another organisation.
 */
import { and, eq, isNull } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { memberSessions, memberships, organisations, roles, users } from "@/server/db/schema";
import { sessionIsLive, touchMemberSession } from "@/server/domain/member-sessions/session-liveness";
import { now } from "@/server/lib/clock";
import { resolveCurrentWorkspace } from "@/server/domain/organisation/resolve-current-workspace";
import type { TActor } from "./actor";
import { organisationOf, roleOf } from "./actor-parts";

/**
 * What the session itself carries: who signed in, for which organisation; and, when the caller checks them, the
 * credentials version they signed in with (a session from before the password last changed is over) and the
 * session's row (member_sessions: a session signed out, unused past its idle limit or signed in longer ago than its
 * lifetime is over; an empty id — a session from before sessions had rows — is over too).
 */
export type TSessionIdentity = { userId: string; organisationId: string; credentialsVersion?: number; sessionId?: string };

export async function loadSessionActor(
  db: Db,
  identity: TSessionIdentity,
  input: { workspaceId?: string | null; requestId?: string; clientAddress?: string | null } = {},
): Promise<TActor | null> {
  const [row] = await db
    .select({
      user: users,
      isOwner: memberships.isOwner,
      role: roles,
      org: organisations,
      session: { signedInAt: memberSessions.signedInAt, lastSeenAt: memberSessions.lastSeenAt },
    })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .innerJoin(organisations, eq(organisations.id, memberships.organisationId))
    .innerJoin(roles, and(eq(roles.id, memberships.roleId), eq(roles.organisationId, memberships.organisationId)))
    .leftJoin(
      memberSessions,
      and(
        eq(memberSessions.id, identity.sessionId ?? ""),
        eq(memberSessions.userId, memberships.userId),
        eq(memberSessions.organisationId, memberships.organisationId),
      ),
    )
    .where(and(eq(memberships.userId, identity.userId), eq(memberships.organisationId, identity.organisationId), isNull(users.deletedAt)))
    .limit(1);
  if (!row) return null;
  if (identity.credentialsVersion !== undefined && identity.credentialsVersion !== row.user.credentialsVersion) return null;
  if (identity.sessionId !== undefined) {
    const at = now();
    if (!row.session || !sessionIsLive(row.session, at)) return null;
    await touchMemberSession(db, identity.sessionId, row.session.lastSeenAt, at);
  }
  const workspace = await resolveCurrentWorkspace(db, { organisationId: identity.organisationId }, { requestedId: input.workspaceId });
  return {
    organisation: organisationOf(row.org),
    workspace,
    user: { id: row.user.id, email: row.user.email, name: row.user.name },
    isOwner: row.isOwner,
    role: roleOf(row.role, row.isOwner),
    apiKey: null,
    requestId: input.requestId ?? "",
    clientAddress: input.clientAddress ?? null,
    ...(identity.sessionId ? { sessionId: identity.sessionId } : {}),
  };
}
