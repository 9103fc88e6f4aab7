/**
 * next-auth: email + password (scrypt), JWT sessions. The token carries who the user is; the jwt callback
 * re-reads membership, role and owner flag from the database on every session read, so a removed member or
 * a changed role takes effect on the next request.
 */
import type { NextAuthOptions } from "next-auth";
import CredentialsProvider from "next-auth/providers/credentials";
import { getDb } from "@/server/db/client";
import { env } from "@/server/env";
import { authorizeCredentials, signInClientAddress } from "./authorize-credentials";
import { loadSessionActor } from "./load-session-actor";

const SESSION_MAX_AGE_SECONDS = 7 * 24 * 60 * 60;

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
          authorizeCredentials(await getDb(), credentials, { clientAddress: signInClientAddress(req.headers) }),
      }),
    ],
    callbacks: {
      async jwt({ token, user }) {
        if (user) {
          token.userId = user.id;
          token.organisationId = user.organisationId;
        }
        if (!token.userId || !token.organisationId) return { ...token, active: false };
        const current = await loadSessionActor(await getDb(), token.userId, token.organisationId);
        if (!current) return { ...token, active: false };
        const { actor, organisationName } = current;
        return { ...token, active: true, name: actor.name, email: actor.email, isOwner: actor.isOwner, roleId: actor.roleId, organisationName };
      },
      async session({ session, token }) {
        const active = token.active && token.userId && token.organisationId && token.roleId && token.email && token.name;
        return {
          expires: session.expires,
          actor: active
            ? {
                userId: token.userId!,
                organisationId: token.organisationId!,
                isOwner: token.isOwner === true,
                roleId: token.roleId!,
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
