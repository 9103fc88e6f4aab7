/**
 * Throttles password guessing at sign-in. The counts live in the database (sign_in_failures), so every replica
 * shares them and a restart keeps them. Within a sliding 15-minute window an attempt is refused, without its
 * password being checked, once
 *
 *   - its email has failed 10 times from its client address (the pair): one place guessing one account —
 *     the owner's own typos count here, and only here and below;
 *   - its address has failed 30 times, over any emails: one source spraying many accounts (higher than the
 *     pair's, since an office behind NAT shares one address);
 *   - its email has failed 100 times from all addresses together: a guess spread over many addresses — except
 *     from an address where that email signed in during the last 30 days (sign_in_known_addresses), so an
 *     attacker elsewhere can neither lock the owner out of their own address nor use up its tries.
 *
 * A refused attempt learns how long until the oldest failure that keeps it out leaves the window, and is not
 * counted. An attempt holds a failure row while its password is checked (claimSignInAttempt): a wrong
 * password keeps it, a right one deletes the pair's rows and records the address (signInSucceeded). Each
 * attempt inserts its row before counting the others, so of concurrent guesses on any replica the last to
 * count sees them all: a limit is never exceeded (a burst may be refused a little early, never late).
 * Old rows are pruned by the jobs in ./sign-in-throttle-jobs.ts; the counts ignore them meanwhile.
 */
import { and, desc, eq, gt, isNull, ne, type SQL } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { signInFailures, signInKnownAddresses } from "@/server/db/schema";
import { now } from "@/server/lib/clock";
import { newId } from "@/server/lib/ids";

export const SIGN_IN_WINDOW_MS = 15 * 60_000;
export const MAX_FAILURES_PER_PAIR = 10;
export const MAX_FAILURES_PER_ADDRESS = 30;
export const MAX_FAILURES_PER_EMAIL = 100;
/** How long a successful sign-in keeps its address exempt from the per-email limit. */
export const KNOWN_ADDRESS_MS = 30 * 24 * 60 * 60_000;

export type TSignInSource = { email: string; clientAddress: string | null };
export type TSignInClaim = { ok: true } | { ok: false; retryAfterMs: number };

function fromAddress(clientAddress: string | null): SQL {
  return clientAddress === null ? isNull(signInFailures.clientAddress) : eq(signInFailures.clientAddress, clientAddress);
}

/** When the `max`-th newest failure in `scope` (other than this attempt's) leaves the window; null below `max`. */
async function freedAt(db: Db, scope: SQL, max: number, attemptId: string, at: Date): Promise<number | null> {
  const [row] = await db
    .select({ failedAt: signInFailures.failedAt })
    .from(signInFailures)
    .where(and(scope, ne(signInFailures.id, attemptId), gt(signInFailures.failedAt, new Date(at.getTime() - SIGN_IN_WINDOW_MS))))
    .orderBy(desc(signInFailures.failedAt))
    .offset(max - 1)
    .limit(1);
  return row ? row.failedAt.getTime() + SIGN_IN_WINDOW_MS : null;
}

/** Whether the email signed in from this address within KNOWN_ADDRESS_MS (never for an unknown address). */
export async function isKnownAddress(db: Db, source: TSignInSource, at: Date = now()): Promise<boolean> {
  if (source.clientAddress === null) return false;
  const [row] = await db
    .select({ id: signInKnownAddresses.id })
    .from(signInKnownAddresses)
    .where(
      and(
        eq(signInKnownAddresses.email, source.email),
        eq(signInKnownAddresses.clientAddress, source.clientAddress),
        gt(signInKnownAddresses.signedInAt, new Date(at.getTime() - KNOWN_ADDRESS_MS)),
      ),
    )
    .limit(1);
  return row !== undefined;
}

/**
 * Before a password is checked: records the attempt as a failure (it stays one unless signInSucceeded follows)
 * and counts the others; over a limit, the row is removed again and the wait returned.
 */
export async function claimSignInAttempt(db: Db, source: TSignInSource, at: Date = now()): Promise<TSignInClaim> {
  const attemptId = newId("sif");
  await db.insert(signInFailures).values({ id: attemptId, email: source.email, clientAddress: source.clientAddress, failedAt: at });
  const frees: (number | null)[] = [
    await freedAt(db, and(eq(signInFailures.email, source.email), fromAddress(source.clientAddress))!, MAX_FAILURES_PER_PAIR, attemptId, at),
  ];
  if (source.clientAddress !== null) frees.push(await freedAt(db, fromAddress(source.clientAddress), MAX_FAILURES_PER_ADDRESS, attemptId, at));
  const emailFreed = await freedAt(db, eq(signInFailures.email, source.email), MAX_FAILURES_PER_EMAIL, attemptId, at);
  if (emailFreed !== null && !(await isKnownAddress(db, source, at))) frees.push(emailFreed);
  const wait = Math.max(0, ...frees.map((t) => (t === null ? 0 : t - at.getTime())));
  if (wait === 0) return { ok: true };
  await db.delete(signInFailures).where(eq(signInFailures.id, attemptId));
  return { ok: false, retryAfterMs: wait };
}

/** After the right password: the pair's failures are forgotten (not the address's or the email's), and the address becomes known. */
export async function signInSucceeded(db: Db, source: TSignInSource, at: Date = now()): Promise<void> {
  await db.delete(signInFailures).where(and(eq(signInFailures.email, source.email), fromAddress(source.clientAddress)));
  if (source.clientAddress === null) return;
  await db
    .insert(signInKnownAddresses)
    .values({ id: newId("sika"), email: source.email, clientAddress: source.clientAddress, signedInAt: at })
    .onConflictDoUpdate({ target: [signInKnownAddresses.email, signInKnownAddresses.clientAddress], set: { signedInAt: at } });
}
