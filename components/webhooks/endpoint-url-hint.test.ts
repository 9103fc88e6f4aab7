/**
 * The endpoint form's URL hint follows WEBHOOK_ALLOW_PRIVATE_TARGETS. The e2e server runs with it on, so only
 * the "on" text was ever seen by a test; this holds the "off" text (what production shows: private and
 * loopback addresses refused, https only) and that the two differ. The page that passes the setting:
 * app/(admin)/webhooks/page.test.ts.
 */
import { describe, expect, it } from "vitest";
import { endpointUrlHint } from "./endpoint-url-hint";

describe("endpointUrlHint", () => {
  it("off: a public https:// address, private and loopback ones refused", () => {
    const hint = endpointUrlHint(false);
    expect(hint).toBe("A public https:// address of your server. Private and loopback addresses are refused.");
    expect(hint).not.toMatch(/accepted|WEBHOOK_ALLOW_PRIVATE_TARGETS/);
  });

  it("on: http:// and private or loopback addresses accepted, development only", () => {
    const hint = endpointUrlHint(true);
    expect(hint).toContain("WEBHOOK_ALLOW_PRIVATE_TARGETS=true (development only)");
    expect(hint).toContain("http:// and private or loopback addresses such as http://localhost are accepted");
    expect(hint).not.toContain("refused");
  });
});
