/**
 * The headers of one attempt. Two signature schemes over the same bytes:
 * - ours: `x-foliosign-signature: v1=<hex>[,v1=<hex>]`, HMAC-SHA256 keyed with the secret string exactly as
 *   returned (UTF-8, `whsec_` included) over `<x-foliosign-timestamp>.<raw body>`;
 * - Standard Webhooks: `webhook-signature: v1,<base64>[ v1,<base64>]`, HMAC-SHA256 keyed with the base64-decoded
 *   part after `whsec_` over `<webhook-id>.<webhook-timestamp>.<raw body>`.
 * One entry per valid secret (two during a rotation overlap), the newest first.
 */
import { createHmac, createSecretKey, type KeyObject } from "node:crypto";
import { createBoundedCache } from "@/server/lib/bounded-cache";
import type { TEventName } from "@/server/domain/webhooks/events/event-catalogue";

export type TSignInput = {
  event: TEventName;
  deliveryId: string;
  /** Unix seconds, fresh for every attempt. */
  timestamp: number;
  body: string;
  secrets: readonly string[];
};

type TKeys = { ours: KeyObject; standard: KeyObject };

/** The two HMAC keys of a secret, made once per secret (at most 1,024): importing a key costs more than the HMAC. */
const keysBySecret = createBoundedCache<string, TKeys>(1024);

function keysOf(secret: string): TKeys {
  return keysBySecret.get(secret, () => ({
    ours: createSecretKey(Buffer.from(secret, "utf8")),
    standard: createSecretKey(Buffer.from(secret.startsWith("whsec_") ? secret.slice("whsec_".length) : secret, "base64")),
  }));
}

export function signWebhook(input: TSignInput): Record<string, string> {
  if (input.secrets.length === 0) throw new Error("signWebhook: no secret");
  const ts = String(input.timestamp);
  const keys = input.secrets.map(keysOf);
  const ours = keys.map((k) => `v1=${createHmac("sha256", k.ours).update(`${ts}.${input.body}`, "utf8").digest("hex")}`).join(",");
  const standard = keys
    .map((k) => `v1,${createHmac("sha256", k.standard).update(`${input.deliveryId}.${ts}.${input.body}`, "utf8").digest("base64")}`)
    .join(" ");
  return {
    "content-type": "application/json",
    "user-agent": "Foliosign-Webhooks/1.0",
    "x-foliosign-event": input.event,
    "x-foliosign-delivery-id": input.deliveryId,
    "x-foliosign-timestamp": ts,
    "x-foliosign-signature": ours,
    "webhook-id": input.deliveryId,
    "webhook-timestamp": ts,
    "webhook-signature": standard,
  };
}
