/**
 * Protects the promise of docs/webhooks.md that IPv4 carried inside IPv6 is refused in every form — even when
 * the IPv4 address it carries is public. The check once unwrapped `::ffff:a.b.c.d` and judged the IPv4 inside,
 * so `https://[::ffff:93.184.216.34]/` was accepted although the documentation says it is refused. The
 * translation prefixes (NAT64, 6to4, Teredo, SIIT) are refused alike; plain public IPv4 and IPv6 still pass.
 */
import { describe, expect, it } from "vitest";
import { isPublicAddress } from "./is-public-address";
import { vetTarget } from "./vet-target";

const CARRYING_PUBLIC_IPV4: [string, string][] = [
  ["v4-mapped, dotted", "::ffff:93.184.216.34"],
  ["v4-mapped, hex", "::ffff:5db8:d822"],
  ["v4-compatible (deprecated)", "::93.184.216.34"],
  ["SIIT ::ffff:0:0/96", "::ffff:0:5db8:d822"],
  ["NAT64 64:ff9b::/96", "64:ff9b::5db8:d822"],
  ["NAT64 local-use 64:ff9b:1::/48", "64:ff9b:1::5db8:d822"],
  ["6to4 2002::/16", "2002:5db8:d822::1"],
  ["Teredo 2001::/32", "2001:0:5db8:d822::1"],
];

describe("isPublicAddress and IPv4 inside IPv6", () => {
  it.each(CARRYING_PUBLIC_IPV4)("refuses %s (%s) although the IPv4 it carries is public", (_label, address) => {
    expect(isPublicAddress("93.184.216.34")).toBe(true);
    expect(isPublicAddress(address)).toBe(false);
  });

  it("refuses a URL spelling a public IPv4 as v4-mapped IPv6, as the documentation says", async () => {
    expect(await vetTarget("https://[::ffff:93.184.216.34]/hook", { allowPrivate: false })).toMatchObject({ ok: false, reason: "private_address" });
  });

  it("still accepts public IPv4 and public IPv6", () => {
    expect(isPublicAddress("93.184.216.34")).toBe(true);
    expect(isPublicAddress("2606:2800:220:1:248:1893:25c8:1946")).toBe(true);
  });
});
