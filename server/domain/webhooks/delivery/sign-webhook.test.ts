/**
 * Protects the signature contract integrators verify against: `x-foliosign-signature` is HMAC-SHA256 keyed
 * with the secret string over `<timestamp>.<raw body>`, lower-case hex, one `v1=` entry per valid secret,
 * comma-separated; the Standard Webhooks headers verify with the `standardwebhooks` npm library. Checked by
 * an independent implementation written here, not by calling the signer twice.
 */
import { createHmac, timingSafeEqual } from "node:crypto";
import { Webhook } from "standardwebhooks";
import { describe, expect, it } from "vitest";
import { signWebhook } from "./sign-webhook";
import { generateWebhookSecret } from "@/server/domain/webhooks/endpoints/generate-webhook-secret";

const body = JSON.stringify({ event: "PACKAGE_SENT", timestamp: "2030-01-01T00:00:00.000Z", data: { packageTitle: "Ünïcode ✓" } });

function independentlyVerifies(header: string, secret: string, timestamp: string, raw: string): boolean {
  const expected = Buffer.from(
    createHmac("sha256", secret)
      .update(timestamp + "." + raw)
      .digest("hex"),
  );
  return header
    .split(",")
    .map((entry) => entry.trim())
    .filter((entry) => entry.startsWith("v1="))
    .some((entry) => {
      const got = Buffer.from(entry.slice(3));
      return got.length === expected.length && timingSafeEqual(got, expected);
    });
}

describe("signWebhook", () => {
  it("signs timestamp.rawBody with the secret string, hex, as v1=", () => {
    const secret = generateWebhookSecret();
    const ts = Math.floor(Date.now() / 1000);
    const headers = signWebhook({ event: "PACKAGE_SENT", deliveryId: "whd_1", timestamp: ts, body, secrets: [secret] });
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(headers["x-foliosign-timestamp"]).toBe(String(ts));
    expect(headers["x-foliosign-signature"]).toMatch(/^v1=[0-9a-f]{64}$/);
    expect(headers["x-foliosign-event"]).toBe("PACKAGE_SENT");
    expect(headers["x-foliosign-delivery-id"]).toBe("whd_1");
    expect(headers["content-type"]).toBe("application/json");
    expect(independentlyVerifies(headers["x-foliosign-signature"]!, secret, String(ts), body)).toBe(true);
    // Tampering with a byte of the body, the timestamp or the secret breaks it.
    expect(independentlyVerifies(headers["x-foliosign-signature"]!, secret, String(ts), body.replace("✓", "x"))).toBe(false);
    expect(independentlyVerifies(headers["x-foliosign-signature"]!, secret, String(ts + 1), body)).toBe(false);
    expect(independentlyVerifies(headers["x-foliosign-signature"]!, generateWebhookSecret(), String(ts), body)).toBe(false);
  });

  it("verifies with the standardwebhooks library using the secret as returned", () => {
    const secret = generateWebhookSecret();
    const ts = Math.floor(Date.now() / 1000);
    const headers = signWebhook({ event: "SESSION_SENT", deliveryId: "whd_abc", timestamp: ts, body, secrets: [secret] });
    expect(headers["webhook-id"]).toBe("whd_abc");
    expect(headers["webhook-timestamp"]).toBe(String(ts));
    const verified = new Webhook(secret).verify(body, headers);
    expect(verified).toEqual(JSON.parse(body));
    expect(() => new Webhook(generateWebhookSecret()).verify(body, headers)).toThrow();
    expect(() => new Webhook(secret).verify(body + " ", headers)).toThrow();
  });

  it("carries one entry per valid secret during a rotation, each verifiable on its own", () => {
    const next = generateWebhookSecret();
    const previous = generateWebhookSecret();
    const ts = Math.floor(Date.now() / 1000);
    const headers = signWebhook({ event: "PACKAGE_SENT", deliveryId: "whd_2", timestamp: ts, body, secrets: [next, previous] });
    expect(headers["x-foliosign-signature"]).toMatch(/^v1=[0-9a-f]{64},v1=[0-9a-f]{64}$/);
    expect(independentlyVerifies(headers["x-foliosign-signature"]!, next, String(ts), body)).toBe(true);
    expect(independentlyVerifies(headers["x-foliosign-signature"]!, previous, String(ts), body)).toBe(true);
    expect(headers["webhook-signature"]!.split(" ")).toHaveLength(2);
    expect(new Webhook(next).verify(body, headers)).toBeTruthy();
    expect(new Webhook(previous).verify(body, headers)).toBeTruthy();
  });
});
