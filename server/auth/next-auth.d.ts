/* eslint-disable @typescript-eslint/consistent-type-definitions -- next-auth's types are extended by interface merging */
export {};

declare module "next-auth" {
  interface Session {
    /**
     * Who signed in, as next-auth's /api/auth/session serves it to the browser (the session's id stays in the
     * encrypted cookie); the app's requests build the actor from the cookie and the database instead
     * (server/auth/session.ts). Null when the user may no longer act (removed, deleted, signed out).
     */
    member: { userId: string; organisationId: string; isOwner: boolean; email: string; name: string } | null;
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
