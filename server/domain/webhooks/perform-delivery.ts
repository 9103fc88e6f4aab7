/**
 * One claimed delivery, start to finish: vet the target again (DNS may have changed since registration), sign
 * the stored body with every valid secret and a fresh timestamp, POST it to the vetted address, record the
 * outcome under the claim token. On shutdown (`signal` aborted) the claim is released instead of recorded.
 */
import { decryptSecret } from "@/server/lib/crypto";
import { env } from "@/server/env";
import { now } from "@/server/lib/clock";
import type { TClaim } from "./claim-deliveries";
import { postWebhook, type TPostOptions } from "./post-webhook";
import { recordAttemptOutcome, type TAttemptResult, type TOutcome } from "./record-attempt-outcome";
import { releaseClaim } from "./release-claim";
import { signWebhook } from "./sign-webhook";
import { vetTarget } from "./vet-target";
import type { Db } from "@/server/db/client";

export type TDeliveryDeps = Pick<TPostOptions, "deadline" | "deadlineMs" | "readBytes"> & {
  allowPrivateTargets?: boolean;
  random?: () => number;
  /** Shutdown: abort the attempt in flight and release its claim. */
  signal?: AbortSignal;
  /** Where outcomes are written; the worker job passes its group-commit writer (outcome-writer.ts). */
  record?: (claim: TClaim, result: TAttemptResult) => Promise<TOutcome>;
};

export function validSecrets(claim: Pick<TClaim, "secretEncrypted" | "previousSecretEncrypted" | "previousSecretExpiresAt">, at: Date): string[] {
  const secrets = [decryptSecret(claim.secretEncrypted)];
  if (claim.previousSecretEncrypted && claim.previousSecretExpiresAt && claim.previousSecretExpiresAt > at) {
    secrets.push(decryptSecret(claim.previousSecretEncrypted));
  }
  return secrets;
}

export async function performDelivery(db: Db, claim: TClaim, deps: TDeliveryDeps = {}): Promise<TOutcome | { kind: "released" }> {
  const startedAt = now();
  const vetted = await vetTarget(claim.url, { allowPrivate: deps.allowPrivateTargets ?? env().WEBHOOK_ALLOW_PRIVATE_TARGETS });
  let result: TAttemptResult;
  if (!vetted.ok) {
    result = {
      ok: false,
      status: null,
      body: null,
      error: `Refused before sending: ${vetted.message}`,
      durationMs: 0,
      remoteAddress: null,
      retryAfterMs: null,
      // A name that does not resolve may come back; a private or invalid target will not.
      permanent: vetted.reason !== "unresolvable",
      startedAt,
    };
  } else {
    const headers = signWebhook({
      event: claim.event,
      deliveryId: claim.id,
      timestamp: Math.floor(startedAt.getTime() / 1000),
      body: claim.body,
      secrets: validSecrets(claim, startedAt),
    });
    const posted = await postWebhook(vetted, { headers, body: claim.body }, deps);
    // Cut short by shutdown: hand the delivery back (a completed 2xx is still recorded as such).
    if (deps.signal?.aborted && !posted.ok) {
      await releaseClaim(db, claim);
      return { kind: "released" };
    }
    result = { ...posted, requestHeaders: headers, startedAt };
  }
  if (deps.record) return deps.record(claim, result);
  return recordAttemptOutcome(db, claim, result, { random: deps.random });
}
