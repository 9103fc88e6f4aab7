import { and, asc, eq, isNull } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "@/server/db/client";
import { memberships, users } from "@/server/db/schema";
import { CLIENT_ADDRESS_HEADER } from "@/server/http/steps/client-address";
import { hasSignedInBefore, mailNewSignIn, type TSignInMailDeps } from "@/server/domain/member-sessions/new-sign-in-mail";
import { configuredMailTransport } from "@/server/domain/mail/transport";
import { recordFailedSignIn } from "@/server/domain/member-sessions/record-failed-sign-in";
import { startMemberSession } from "@/server/domain/member-sessions/start-member-session";
import { hashPassword, verifyPassword } from "@/server/lib/crypto";
import { now } from "@/server/lib/clock";
import { claimSignInAttempt, isKnownAddress, signInSucceeded } from "./sign-in-throttle";
import { signInThrottledError } from "./sign-in-throttled";

export const ZCredentials = z.object({
  // PostgreSQL cannot hold U+0000, and text columns turn a lone surrogate into U+FFFD: such credentials fail the
  // sign-in here, like every ill-formed string at the API's boundary (server/lib/parse.ts).
  email: z
    .string()
    .trim()
    .toLowerCase()
    .min(1)
    .max(320)
    .refine((e) => !e.includes("\u0000") && e.isWellFormed()),
  password: z
    .string()
    .min(1)
    .max(200)
    .refine((p) => p.isWellFormed()),
});

/** Who signed in, and the session the sign-in started (member_sessions: its id goes into the JWT). */
export type TSignedInUser = { id: string; name: string; email: string; organisationId: string; credentialsVersion: number; sessionId: string };

/**
 * Where a sign-in attempt comes from: the address our HTTP server recorded from the socket, if any, and the
 * browser's User-Agent (only to name the session on the Account page).
 */
export type TSignInRequest = { clientAddress: string | null; userAgent?: string | null };

/**
 * The client address from the request headers next-auth hands to `authorize` (a plain object). Only our own
 * header counts: server/http-server.ts sets it from the socket and drops any copy a client sends.
 */
export function signInClientAddress(headers: Record<string, unknown> | undefined): string | null {
  const value = headers?.[CLIENT_ADDRESS_HEADER];
  return typeof value === "string" && value.trim() !== "" ? value.trim() : null;
}

/** The User-Agent from the headers next-auth hands to `authorize`. */
export function signInUserAgent(headers: Record<string, unknown> | undefined): string | null {
  const value = headers?.["user-agent"];
  return typeof value === "string" && value.trim() !== "" ? value.trim() : null;
}

let dummyHash: Promise<string> | undefined;

/**
 * Email + password → the user and the organisation they sign in to, or null. Removed users (deleted_at) and
 * users without a membership cannot sign in; invited users without a password yet neither. An unknown email
 * still costs one scrypt run, so response time does not reveal which emails exist. Too many failures for the
 * email from this address, from the address, or for the email from everywhere (sign-in-throttle.ts, counted in
 * the database) → SignInThrottledError before the password is checked, so a throttled guess learns nothing,
 * even when it is right. A right password starts a session (member_sessions) and records the sign-in; a wrong one
 * for a member is recorded too (`member.sign_in_failed`, on Activity and the member's Account page). A member who
 * signs in from an address they have not signed in from in 30 days gets a mail saying so (new-sign-in-mail.ts).
 */
export async function authorizeCredentials(db: Db, raw: unknown, request: TSignInRequest, deps: TSignInMailDeps = {}): Promise<TSignedInUser | null> {
  const parsed = ZCredentials.safeParse(raw);
  if (!parsed.success) return null;
  const { email, password } = parsed.data;
  const source = { email, clientAddress: request.clientAddress };
  // The attempt counts as a failure from here on, unless the password is right.
  const claim = await claimSignInAttempt(db, source);
  if (!claim.ok) throw signInThrottledError(claim.retryAfterMs);
  const [row] = await db
    .select({
      id: users.id,
      name: users.name,
      email: users.email,
      passwordHash: users.passwordHash,
      credentialsVersion: users.credentialsVersion,
      organisationId: memberships.organisationId,
    })
    .from(users)
    .innerJoin(memberships, eq(memberships.userId, users.id))
    .where(and(eq(users.email, email), isNull(users.deletedAt)))
    .orderBy(asc(memberships.createdAt))
    .limit(1);
  if (!row?.passwordHash) {
    dummyHash ??= hashPassword("not-a-real-password");
    await verifyPassword(password, await dummyHash);
    return null;
  }
  const origin = { clientAddress: request.clientAddress, userAgent: request.userAgent ?? null };
  if (!(await verifyPassword(password, row.passwordHash))) {
    await recordFailedSignIn(db, row, row.organisationId, origin);
    return null;
  }
  // Before this sign-in makes its address familiar: a member who has signed in before, from an address not used
  // in 30 days, is told by mail (only with a mail server).
  const at = now();
  const transport = deps.transport ?? configuredMailTransport();
  const address = request.clientAddress;
  const unfamiliar = transport.kind === "smtp" && address !== null && !(await isKnownAddress(db, source, at)) && (await hasSignedInBefore(db, row.id));
  await signInSucceeded(db, source, at);
  const sessionId = await startMemberSession(db, row, row.organisationId, origin);
  if (unfamiliar && address !== null) {
    // Not awaited: the sign-in does not wait for the mail server (and `sending?.(…)` would skip a call in its argument).
    const sent = mailNewSignIn(db, transport, row, row.organisationId, { clientAddress: address, userAgent: origin.userAgent }, at, deps.wait);
    deps.sending?.(sent);
  }
  return { id: row.id, name: row.name, email: row.email, organisationId: row.organisationId, credentialsVersion: row.credentialsVersion, sessionId };
}
