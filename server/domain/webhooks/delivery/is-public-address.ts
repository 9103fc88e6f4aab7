import ipaddr from "ipaddr.js";

/**
 * True only for public unicast addresses. Everything ipaddr.js classifies otherwise is refused: private,
 * loopback, link-local (169.254.169.254 included), CGNAT, multicast, broadcast, unspecified, reserved and
 * documentation ranges — and every form of IPv4 carried inside IPv6, whatever IPv4 address it carries, public
 * or not: v4-mapped `::ffff:a.b.c.d` (and the deprecated v4-compatible `::a.b.c.d`), SIIT `::ffff:0:a.b.c.d`,
 * NAT64 `64:ff9b::/96` and `64:ff9b:1::/48`, 6to4 `2002::/16`, Teredo `2001::/32`. A receiver has no reason
 * to be reached through a translation prefix, and judging the embedded IPv4 instead would trust every
 * translator on the path (docs/webhooks.md promises these are refused). IPv6 must also lie in global unicast
 * 2000::/3.
 */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  const parsed = ipaddr.parse(address);
  // For IPv6, ipaddr.js names each embedding ("ipv4Mapped", "rfc6145", "rfc6052", "6to4", "teredo"), so
  // only addresses outside all of them are "unicast".
  if (parsed.range() !== "unicast") return false;
  if (parsed.kind() === "ipv6") {
    const first = (parsed as ipaddr.IPv6).parts[0] ?? 0;
    return (first & 0xe000) === 0x2000;
  }
  return true;
}
