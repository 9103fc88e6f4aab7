import ipaddr from "ipaddr.js";

/**
 * True only for public unicast addresses. Everything ipaddr.js classifies otherwise is refused: private,
 * loopback, link-local (169.254.169.254 included), CGNAT, multicast, broadcast, unspecified, reserved and
 * documentation ranges, and every form of IPv4 carried inside IPv6 (v4-mapped, NAT64 64:ff9b::/96, 6to4
 * 2002::/16, Teredo). A v4-mapped address is judged as the IPv4 address it carries. IPv6 must also lie in
 * global unicast 2000::/3, which excludes the deprecated IPv4-compatible `::a.b.c.d` forms.
 */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === "ipv6" && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) {
    parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  }
  if (parsed.range() !== "unicast") return false;
  if (parsed.kind() === "ipv6") {
    const first = (parsed as ipaddr.IPv6).parts[0] ?? 0;
    return (first & 0xe000) === 0x2000;
  }
  return true;
}
