/**
 * One claimed delivery, start to finish, under one 10 s deadline: vet the target again (DNS may have changed
 * since registration; the lookup counts against the deadline), sign
 * the stored body with every valid secret and a fresh timestamp, confirm the claim is still ours and its
 * endpoint not paused (confirm-claims.ts), POST it to the vetted address, record the outcome under the claim
 * token. On shutdown (`signal` aborted) the claim is released instead of recorded.
 */
import { createBoundedCache } from "@/server/lib/bounded-cache";
import { decryptSecret } from "@/server/lib/crypto";
import { env } from "@/server/env";
import { now } from "@/server/lib/clock";
import { attemptSignal, type TAttemptSignal } from "./attempt-signal";
import type { TClaim } from "./claim-deliveries";
import { confirmClaims, type TSendVerdict } from "./confirm-claims";
import { postWebhook, type TPostOptions } from "./post-webhook";
import { recordAttemptOutcome, type TAttemptResult, type TOutcome } from "./record-attempt-outcome";
import { releaseClaim } from "./release-claim";
import { signWebhook } from "./sign-webhook";
import { vetTarget } from "./vet-target";
import { WEBHOOK_LIMITS } from "@/server/domain/webhooks/limits";
import type { Db } from "@/server/db/client";

export type TDeliveryDeps = Pick<TPostOptions, "deadline" | "deadlineMs" | "readBytes"> & {
  allowPrivateTargets?: boolean;
  random?: () => number;
  /** Shutdown: abort the attempt in flight and release its claim. */
  signal?: AbortSignal;
  /** Where outcomes are written; the worker job passes its group-commit writer (outcome-writer.ts). */
  record?: (claim: TClaim, result: TAttemptResult) => Promise<TOutcome>;
  /** The last check before sending (confirm-claims.ts); the worker job passes its batching gate (send-gate.ts). */
  confirm?: (claim: TClaim) => Promise<TSendVerdict>;
};

/**
 * Decrypted endpoint secrets, by ciphertext, for the worker's hot path (a decryption costs ~7 µs per attempt).
 * Bounded; a rotated secret has a new ciphertext, so an entry is never stale. The secrets stay in this
 * process's memory, where every attempt already puts them; they are never logged.
 */
const decrypted = createBoundedCache<string, string>(1024);
const decryptCached = (ciphertext: string) => decrypted.get(ciphertext, () => decryptSecret(ciphertext));

export function validSecrets(claim: Pick<TClaim, "secretEncrypted" | "previousSecretEncrypted" | "previousSecretExpiresAt">, at: Date): string[] {
  const secrets = [decryptCached(claim.secretEncrypted)];
  if (claim.previousSecretEncrypted && claim.previousSecretExpiresAt && claim.previousSecretExpiresAt > at) {
    secrets.push(decryptCached(claim.previousSecretEncrypted));
  }
  return secrets;
}

export async function performDelivery(db: Db, claim: TClaim, deps: TDeliveryDeps = {}): Promise<TOutcome | { kind: "released" }> {
  const startedAt = now();
  // ONE deadline for the whole attempt, started before the DNS lookup: a resolver that never answers is
  // abandoned with the rest of the attempt after 10 s (the lookup once had no limit at all).
  const deadlineMs = deps.deadlineMs ?? WEBHOOK_LIMITS.deadlineMs;
  const attempt = attemptSignal(deadlineMs, { deadline: deps.deadline, shutdown: deps.signal });
  try {
    return await attemptDelivery(db, claim, deps, startedAt, deadlineMs, attempt);
  } finally {
    attempt.dispose();
  }
}

async function attemptDelivery(
  db: Db,
  claim: TClaim,
  deps: TDeliveryDeps,
  startedAt: Date,
  deadlineMs: number,
  attempt: TAttemptSignal,
): Promise<TOutcome | { kind: "released" }> {
  const vetted = await vetTarget(claim.url, {
    allowPrivate: deps.allowPrivateTargets ?? env().WEBHOOK_ALLOW_PRIVATE_TARGETS,
    attempt,
  });
  // Cut short by shutdown during the lookup: hand the delivery back.
  if (deps.signal?.aborted) {
    await releaseClaim(db, claim);
    return { kind: "released" };
  }
  let result: TAttemptResult;
  if (!vetted.ok) {
    const lookupTimedOut = attempt.deadlineHit() && vetted.reason === "unresolvable";
    result = {
      ok: false,
      status: null,
      body: null,
      error: lookupTimedOut ? `DNS lookup did not finish within ${deadlineMs / 1000} s` : `Refused before sending: ${vetted.message}`,
      durationMs: 0,
      remoteAddress: null,
      retryAfterMs: null,
      // A name that does not resolve may come back; a private or invalid target will not.
      permanent: vetted.reason !== "unresolvable",
      startedAt,
    };
  } else {
    // A claim made just before its endpoint was paused is dropped here, unsent; one taken over is not sent.
    const verdict = await (deps.confirm ? deps.confirm(claim) : confirmClaims(db, [claim]).then(([v]) => v!));
    if (verdict === "paused") return { kind: "recorded", status: "EXHAUSTED", nextAttemptAt: null };
    if (verdict === "stale") return { kind: "stale" };
    const headers = signWebhook({
      event: claim.event,
      deliveryId: claim.id,
      timestamp: Math.floor(startedAt.getTime() / 1000),
      body: claim.body,
      secrets: validSecrets(claim, startedAt),
    });
    const posted = await postWebhook(vetted, { headers, body: claim.body }, { ...deps, attempt });
    // Cut short by shutdown: hand the delivery back (a completed 2xx is still recorded as such).
    if (deps.signal?.aborted && !posted.ok) {
      await releaseClaim(db, claim);
      return { kind: "released" };
    }
    result = { ...posted, requestHeaders: headers, startedAt };
  }
  // The deadline and the shutdown listener are for the request, not for writing its outcome.
  attempt.dispose();
  if (deps.record) return deps.record(claim, result);
  return recordAttemptOutcome(db, claim, result, { random: deps.random });
}
