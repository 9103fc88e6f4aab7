/* eslint-disable @typescript-eslint/consistent-type-definitions -- next-auth's types are extended by interface merging */
export {};

declare module "next-auth" {
  interface Session {
    /**
     * Who signed in, for display and identity only; every request builds the full actor from the database
     * (server/domain/access/load-session-actor.ts). Null when the user may no longer act (removed, deleted).
     */
    member: { userId: string; organisationId: string; isOwner: boolean; email: string; name: string; sessionId: string } | null;
    organisationName: string | null;
  }
  interface User {
    organisationId: string;
    /** The user's credentials version at sign-in (users.credentials_version). */
    credentialsVersion: number;
    /** The session the sign-in started (member_sessions.id). */
    sessionId: string;
  }
}

declare module "next-auth/jwt" {
  interface JWT {
    userId?: string;
    organisationId?: string;
    isOwner?: boolean;
    organisationName?: string;
    active?: boolean;
    /** The credentials version the session signed in with: once the user's is raised, the session is over. */
    credentialsVersion?: number;
    /** The session's row (member_sessions.id): once it is gone, the session is over. */
    sessionId?: string;
  }
}
