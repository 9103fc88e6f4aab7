import { getServerSession, type Session } from "next-auth";
import { forbidden, redirect } from "next/navigation";
import { getDb } from "@/server/db/client";
import { hasAnyUser } from "@/server/domain/accounts/create-organisation";
import type { TSessionActor } from "@/server/domain/actor";
import { getAuthOptions } from "./options";

export type TActiveSession = { actor: TSessionActor; organisationName: string };

/** The signed-in member, re-read from the database (see options.ts), or null. */
export async function getActiveSession(): Promise<TActiveSession | null> {
  const session: Session | null = await getServerSession(getAuthOptions());
  if (!session?.actor) return null;
  return { actor: session.actor, organisationName: session.organisationName ?? "" };
}

export async function getSessionActor(): Promise<TSessionActor | null> {
  return (await getActiveSession())?.actor ?? null;
}

/** For pages and layouts: the signed-in member, or a redirect to /setup (first run) or /signin. */
export async function requireActiveSession(): Promise<TActiveSession> {
  const session = await getActiveSession();
  if (session) return session;
  if (!(await hasAnyUser(await getDb()))) redirect("/setup");
  redirect("/signin");
}

export async function requireSessionActor(): Promise<TSessionActor> {
  return (await requireActiveSession()).actor;
}

/**
 * For owner-only pages: anyone else signed in gets the forbidden UI with HTTP status 403 (forbidden() throws
 * before the page streams, since no loading.tsx wraps these pages). Their app API answers 403 too.
 */
export async function requireOwnerActor(): Promise<TSessionActor> {
  const actor = await requireSessionActor();
  if (!actor.isOwner) forbidden();
  return actor;
}
