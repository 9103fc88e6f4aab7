/**
 * next-auth: email + password (scrypt), JWT sessions. The token carries who signed in (user, organisation,
 * credentials version, session id); the app's pages and API read it from the cookie (./session-cookie.ts) and load
 * the member from the database once per request (load-session-actor.ts), so a removed member or a changed role
 * takes effect on the next request; a session that signed in before the password last changed (its credentials
 * version is older than the user's) is over; and so is one whose row in member_sessions is gone (signed out here
 * or from another session: server/domain/member-sessions/), unused for 7 days or signed in 30 days ago. The JWT
 * lives those 30 days: next-auth renews its cookie only when /api/auth/session is read, which the app never does,
 * so a JWT that lived 7 days would end a session in daily use at its seventh day. The callbacks below serve
 * next-auth's own session endpoint, with the same checks.
 */
import type { NextAuthOptions } from "next-auth";
import CredentialsProvider from "next-auth/providers/credentials";
import { getDb } from "@/server/db/client";
import { env } from "@/server/env";
import { authorizeCredentials, signInClientAddress, signInUserAgent } from "./authorize-credentials";
import { loadSessionActor } from "@/server/domain/access/load-session-actor";
import { MEMBER_SESSION_LIMITS } from "@/server/domain/member-sessions/limits";
import { endSignedOutSession } from "@/server/domain/member-sessions/session-liveness";

const SESSION_MAX_AGE_SECONDS = MEMBER_SESSION_LIMITS.lifetimeMs / 1000;

let cached: NextAuthOptions | undefined;

/** Built on first use (not at import), so `next build` never reads secrets or opens the database. */
export function getAuthOptions(): NextAuthOptions {
  cached ??= {
    secret: env().NEXTAUTH_SECRET,
    session: { strategy: "jwt", maxAge: SESSION_MAX_AGE_SECONDS },
    pages: { signIn: "/signin", signOut: "/signout", error: "/signin" },
    providers: [
      CredentialsProvider({
        name: "Email and password",
        credentials: { email: { label: "Email", type: "email" }, password: { label: "Password", type: "password" } },
        // A throttled attempt throws: next-auth passes the error's message to signIn()'s result (sign-in-throttled.ts).
        authorize: async (credentials, req) =>
          authorizeCredentials(await getDb(), credentials, { clientAddress: signInClientAddress(req.headers), userAgent: signInUserAgent(req.headers) }),
      }),
    ],
    events: {
      // Signing out ends the session on the server too: a copy of its cookie stops working at once.
      async signOut({ token }) {
        if (token?.sessionId) await endSignedOutSession(await getDb(), token.sessionId);
      },
    },
    callbacks: {
      async jwt({ token, user }) {
        if (user) {
          token.userId = user.id;
          token.organisationId = user.organisationId;
          token.credentialsVersion = user.credentialsVersion;
          token.sessionId = user.sessionId;
        }
        if (!token.userId || !token.organisationId) return { ...token, active: false };
        // A session from before credentials versions counts as version 0, the version of a password never changed.
        // A session from before sessions had rows has no id: it is over (the empty id matches no row).
        const identity = {
          userId: token.userId,
          organisationId: token.organisationId,
          credentialsVersion: token.credentialsVersion ?? 0,
          sessionId: token.sessionId ?? "",
        };
        const actor = await loadSessionActor(await getDb(), identity);
        if (!actor) return { ...token, active: false };
        return { ...token, active: true, name: actor.user.name, email: actor.user.email, isOwner: actor.isOwner, organisationName: actor.organisation.name };
      },
      async session({ session, token }) {
        const active = token.active && token.userId && token.organisationId && token.email && token.name;
        return {
          expires: session.expires,
          member: active
            ? {
                userId: token.userId!,
                organisationId: token.organisationId!,
                isOwner: token.isOwner === true,
                email: token.email!,
                name: token.name!,
              }
            : null,
          organisationName: active ? (token.organisationName ?? null) : null,
        };
      },
    },
  };
  return cached;
}
