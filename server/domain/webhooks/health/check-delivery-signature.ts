/**
 * The signature debugger. The user pastes the digest their receiver computed for one attempt of a delivery;
 * we say whether it matches what was SENT (an entry of that attempt's `x-foliosign-signature`, or of
 * `webhook-signature` for Standard Webhooks receivers) and, when it does not, which input differs.
 *
 * An HMAC reveals nothing about its inputs, so "which input differs" can only be found by reproducing the
 * digest: we recompute it with each secret we still hold (current and previous), each timestamp the receiver
 * could plausibly have used (this attempt's header, other attempts' headers, the envelope's `timestamp`, none
 * at all) and each body it could have hashed (raw bytes, re-serialised or pretty-printed JSON), changing ONE
 * input at a time. The first variant that reproduces the digest names the difference. When none does, we say
 * plainly that we cannot tell, rather than guess.
 */
import { createHmac } from "node:crypto";
import { desc, eq } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { webhookAttempts } from "@/server/db/schema";
import { errors } from "@/server/lib/errors";
import { decryptSecret } from "@/server/lib/crypto";
import { findDelivery } from "./find-delivery";
import type { TActor } from "@/server/domain/access/actor";

export type TSignatureVerdict = {
  match: boolean;
  differs: "secret" | "timestamp" | "body" | null;
  /** Set when the digest matched or the difference was identified; null when we cannot tell. */
  identified: boolean;
  message: string;
  attemptNumber: number;
  timestamp: string;
  signedString: string;
};

const hmacHex = (key: Buffer | string, text: string) => createHmac("sha256", key).update(text, "utf8").digest("hex");
const standardKey = (secret: string) => Buffer.from(secret.replace(/^whsec_/, ""), "base64");

/** Hex as our header carries it; a base64 digest of 32 bytes is accepted and converted. */
function normaliseDigest(raw: string): string {
  const text = raw.trim().replace(/^v1[=,]/, "");
  if (/^[0-9a-f]{64}$/i.test(text)) return text.toLowerCase();
  const bytes = Buffer.from(text, "base64");
  if (/^[A-Za-z0-9+/]+={0,2}$/.test(text) && bytes.length === 32) return bytes.toString("hex");
  throw errors.validation({ digest: ["Paste a HMAC-SHA256 digest: 64 hexadecimal characters (or its base64 form), with or without v1="] });
}

function reformatted(body: string): { label: string; value: string }[] {
  try {
    const parsed: unknown = JSON.parse(body);
    return [
      { label: "re-serialised JSON (parsed and stringified again)", value: JSON.stringify(parsed) },
      { label: "pretty-printed JSON", value: JSON.stringify(parsed, null, 2) },
    ].filter((v) => v.value !== body);
  } catch {
    return [];
  }
}

export async function checkDeliverySignature(db: Db, actor: TActor, input: { endpointId: string; deliveryId: string; digest: string; attemptId?: string }) {
  const digest = normaliseDigest(input.digest);
  const { delivery, event, endpoint } = await findDelivery(db, actor, input);
  const attempts = await db.select().from(webhookAttempts).where(eq(webhookAttempts.deliveryId, delivery.id)).orderBy(desc(webhookAttempts.startedAt));
  const sent = attempts.filter((a) => a.requestHeaders?.["x-foliosign-timestamp"]);
  const attempt = input.attemptId ? sent.find((a) => a.id === input.attemptId) : sent[0];
  if (!attempt?.requestHeaders) throw errors.conflict("Nothing has been sent for this delivery yet, so there is no signature to compare.");
  const headers = attempt.requestHeaders;
  const ts = headers["x-foliosign-timestamp"]!;
  const body = event.body;
  const signedString = `${ts}.${body}`;
  const verdict = (match: boolean, differs: TSignatureVerdict["differs"], identified: boolean, message: string): TSignatureVerdict => ({
    match,
    differs,
    identified,
    message,
    attemptNumber: attempt.attemptNumber,
    timestamp: ts,
    signedString,
  });

  const sentOurs = (headers["x-foliosign-signature"] ?? "").split(",").map((e) => e.trim().replace(/^v1=/, ""));
  const sentStandard = (headers["webhook-signature"] ?? "").split(" ").map((e) => e.trim().replace(/^v1,/, ""));
  const secrets = [
    { label: "the current secret", value: decryptSecret(endpoint.secretEncrypted) },
    ...(endpoint.previousSecretEncrypted ? [{ label: "the previous secret", value: decryptSecret(endpoint.previousSecretEncrypted) }] : []),
  ];
  const signing = secrets.filter((s) => sentOurs.includes(hmacHex(s.value, signedString)));
  const nameOf = (hex: string) => signing.find((s) => hmacHex(s.value, signedString) === hex)?.label ?? "a secret that signed this attempt";

  if (sentOurs.includes(digest)) return verdict(true, null, true, `Match: this is the x-foliosign-signature entry made with ${nameOf(digest)}.`);
  const standardB64 = Buffer.from(digest, "hex").toString("base64");
  if (sentStandard.includes(standardB64)) return verdict(true, null, true, "Match: this is the Standard Webhooks webhook-signature (over id.timestamp.body).");

  for (const s of secrets) {
    if (!signing.includes(s) && hmacHex(s.value, signedString) === digest) {
      return verdict(
        false,
        "secret",
        true,
        `The secret differs: you used ${s.label}, which did not sign attempt ${attempt.attemptNumber} (it was sent before or after a rotation). Timestamp and body are right.`,
      );
    }
    if (hmacHex(standardKey(s.value), signedString) === digest) {
      return verdict(
        false,
        "secret",
        true,
        "The secret differs: you keyed the HMAC with the base64-decoded secret (the Standard Webhooks way). x-foliosign-signature is keyed with the whole secret string, whsec_ included, as UTF-8.",
      );
    }
  }
  const keys = signing.length ? signing : secrets;
  const otherTimestamps = [
    ...attempts
      .filter((a) => a.id !== attempt.id)
      .map((a) => ({ label: `the timestamp of attempt ${a.attemptNumber}`, value: a.requestHeaders?.["x-foliosign-timestamp"] })),
    { label: "the envelope's timestamp field", value: (event.payload as { timestamp?: string }).timestamp },
    { label: "the timestamp in milliseconds", value: `${ts}000` },
  ];
  for (const s of keys) {
    if (hmacHex(s.value, body) === digest)
      return verdict(
        false,
        "timestamp",
        true,
        "The timestamp differs: you signed the body alone. Sign the x-foliosign-timestamp header value, a full stop, then the body.",
      );
    for (const t of otherTimestamps) {
      if (t.value && t.value !== ts && hmacHex(s.value, `${t.value}.${body}`) === digest) {
        return verdict(
          false,
          "timestamp",
          true,
          `The timestamp differs: you used ${t.label} instead of this attempt's x-foliosign-timestamp (${ts}). Every attempt has a fresh timestamp.`,
        );
      }
    }
    for (const b of reformatted(body)) {
      if (hmacHex(s.value, `${ts}.${b.value}`) === digest) {
        return verdict(false, "body", true, `The body differs: you hashed ${b.label}. Hash the raw request bytes exactly as received.`);
      }
    }
  }
  return verdict(
    false,
    null,
    false,
    "No match, and we cannot tell which input differs: an HMAC reveals nothing about its inputs, and none of the usual mistakes (old or decoded secret, another or missing timestamp, re-formatted body) reproduces your digest. " +
      "Check the secret first (secrets older than the previous one are no longer kept), then that you sign exactly the signed string shown here.",
  );
}
