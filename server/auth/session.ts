import { cookies, headers } from "next/headers";
import { forbidden, redirect } from "next/navigation";
import { getDb } from "@/server/db/client";
import type { TActor } from "@/server/domain/access/actor";
import { loadSessionActor, type TSessionIdentity } from "@/server/domain/access/load-session-actor";
import { hasAnyUser } from "@/server/domain/organisation/create-organisation";
import { PAGE_PATH_HEADER } from "@/server/http/steps/page-path";
import { signInPathFor } from "@/common/return-path";
import { getAuthOptions } from "./options";
import { identityFromSessionCookies } from "./session-cookie";
import { workspaceCookie } from "./workspace-cookie";

/**
 * Who signed in, for which organisation, with which credentials version and session (the JWT's claims, read from
 * the cookie: session-cookie.ts), or null. Not yet checked: loadSessionActor does that, once per request.
 */
export async function getSessionIdentity(): Promise<TSessionIdentity | null> {
  const jar = await cookies();
  return identityFromSessionCookies(Object.fromEntries(jar.getAll().map((c) => [c.name, c.value])), getAuthOptions().secret);
}

export type TActiveSession = { actor: TActor; organisationName: string };

/** The signed-in member as an actor in the current workspace, read from the database now, or null. */
export async function getActiveSession(): Promise<TActiveSession | null> {
  const identity = await getSessionIdentity();
  if (!identity) return null;
  const actor = await loadSessionActor(await getDb(), identity, { workspaceId: await workspaceCookie() });
  return actor ? { actor, organisationName: actor.organisation.name } : null;
}

/**
 * For pages and layouts: the signed-in member, or a redirect to /setup (first run) or /signin — naming the page
 * asked for (our HTTP server's header, page-path.ts), so that signing in returns to it: the link in a mail, a
 * bookmark, the page a session ended on.
 */
export async function requireActiveSession(): Promise<TActiveSession> {
  const session = await getActiveSession();
  if (session) return session;
  if (!(await hasAnyUser(await getDb()))) redirect("/setup");
  redirect(signInPathFor((await headers()).get(PAGE_PATH_HEADER)));
}

export async function requireSessionActor(): Promise<TActor> {
  return (await requireActiveSession()).actor;
}

/**
 * For pages behind a gate: anyone who fails it gets the forbidden UI with HTTP status 403 (forbidden() throws
 * before the page streams, since no loading.tsx wraps these pages). Their app API answers 403 too.
 */
export async function requireActorWhere(allowed: (actor: TActor) => boolean): Promise<TActor> {
  const actor = await requireSessionActor();
  if (!allowed(actor)) forbidden();
  return actor;
}

export function requireOwnerActor(): Promise<TActor> {
  return requireActorWhere((actor) => actor.isOwner);
}
