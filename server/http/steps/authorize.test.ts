/**
 * addressAllowed decides the spec's `403 IP address not allowed`: single addresses and CIDR ranges, IPv4 and
 * IPv6, and IPv4 clients seen through an IPv6 socket (::ffff:a.b.c.d) — both as the client and in the list.
 * A malformed entry must never match (nor throw), and an unparseable client address is never allowed.
 */
import { describe, expect, it } from "vitest";
import { addressAllowed } from "./authorize";

describe("addressAllowed", () => {
  it("matches single IPv4 addresses exactly", () => {
    expect(addressAllowed("203.0.113.9", ["203.0.113.9"])).toBe(true);
    expect(addressAllowed("203.0.113.10", ["203.0.113.9"])).toBe(false);
  });

  it("matches IPv4 CIDR ranges at their edges", () => {
    const list = ["10.1.0.0/16"];
    expect(addressAllowed("10.1.0.0", list)).toBe(true);
    expect(addressAllowed("10.1.255.255", list)).toBe(true);
    expect(addressAllowed("10.2.0.0", list)).toBe(false);
    expect(addressAllowed("10.0.255.255", list)).toBe(false);
    expect(addressAllowed("192.0.2.1", ["0.0.0.0/0"])).toBe(true);
    expect(addressAllowed("192.0.2.1", ["192.0.2.1/32"])).toBe(true);
    expect(addressAllowed("192.0.2.2", ["192.0.2.1/32"])).toBe(false);
  });

  it("matches IPv6 addresses in any spelling and IPv6 ranges", () => {
    expect(addressAllowed("2001:db8::1", ["2001:0db8:0000:0000:0000:0000:0000:0001"])).toBe(true);
    expect(addressAllowed("2001:db8:ffff::1", ["2001:db8::/32"])).toBe(true);
    expect(addressAllowed("2001:db9::1", ["2001:db8::/32"])).toBe(false);
    expect(addressAllowed("::1", ["::1"])).toBe(true);
  });

  it("never matches across families", () => {
    expect(addressAllowed("10.0.0.1", ["::/0"])).toBe(false);
    expect(addressAllowed("2001:db8::1", ["0.0.0.0/0"])).toBe(false);
  });

  it("treats a v4-mapped client as its IPv4 address", () => {
    expect(addressAllowed("::ffff:203.0.113.9", ["203.0.113.0/24"])).toBe(true);
    expect(addressAllowed("::ffff:203.0.113.9", ["203.0.113.9"])).toBe(true);
    expect(addressAllowed("::ffff:198.51.100.1", ["203.0.113.0/24"])).toBe(false);
  });

  it("treats v4-mapped entries as covering the IPv4 clients they name", () => {
    expect(addressAllowed("203.0.113.9", ["::ffff:203.0.113.9"])).toBe(true);
    expect(addressAllowed("203.0.113.9", ["::ffff:203.0.113.0/120"])).toBe(true);
    expect(addressAllowed("203.0.114.9", ["::ffff:203.0.113.0/120"])).toBe(false);
    expect(addressAllowed("::ffff:203.0.113.9", ["::ffff:203.0.113.0/120"])).toBe(true);
  });

  it("ignores malformed entries and refuses malformed client addresses", () => {
    expect(addressAllowed("10.0.0.1", ["not an address", "10.0.0.0/33", "10.0.0.1/x"])).toBe(false);
    expect(addressAllowed("10.0.0.1", ["garbage", "10.0.0.0/8"])).toBe(true);
    expect(addressAllowed("unknown", ["0.0.0.0/0", "::/0"])).toBe(false);
    expect(addressAllowed("", ["0.0.0.0/0"])).toBe(false);
    expect(addressAllowed("10.0.0.1", [])).toBe(false);
  });
});
