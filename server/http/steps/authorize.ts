/** The API door's own checks after authentication: the workspace header and the IP allowlist. */
import ipaddr from "ipaddr.js";
import type { TActor } from "@/server/domain/access/actor";
import { errors } from "@/server/lib/errors";

/** `X-Workspace-Id` may only repeat the key's own workspace; anything else is 401, never a wider scope. */
export function checkWorkspaceHeader(req: Request, actor: TActor): void {
  const header = req.headers.get("x-workspace-id");
  if (header !== null && header.trim() !== actor.workspace.id) throw errors.unauthorized();
}

function parseAddress(value: string): ipaddr.IPv4 | ipaddr.IPv6 | null {
  if (!ipaddr.isValid(value)) return null;
  const addr = ipaddr.parse(value);
  // An IPv4 client seen through an IPv6 socket arrives as ::ffff:a.b.c.d.
  return addr.kind() === "ipv6" && (addr as ipaddr.IPv6).isIPv4MappedAddress() ? (addr as ipaddr.IPv6).toIPv4Address() : addr;
}

/** Whether one allowlist entry (an address or a CIDR range) covers an already parsed client address. */
function entryMatches(addr: ipaddr.IPv4 | ipaddr.IPv6, entry: string): boolean {
  try {
    const text = entry.trim();
    if (!text.includes("/")) {
      const single = parseAddress(text);
      return single !== null && single.kind() === addr.kind() && single.toNormalizedString() === addr.toNormalizedString();
    }
    const [range, bits] = ipaddr.parseCIDR(text);
    if (range.kind() === addr.kind()) return addr.match(range, bits);
    // A v4-mapped range (::ffff:10.0.0.0/104) names IPv4 clients, which parseAddress has un-mapped. Only a
    // range inside ::ffff:0:0/96 does: `::/0` means "all of IPv6", not every IPv4 client as well.
    const mapped = range.kind() === "ipv6" && (range as ipaddr.IPv6).isIPv4MappedAddress() && bits >= 96;
    return mapped && addr.kind() === "ipv4" && addr.match((range as ipaddr.IPv6).toIPv4Address(), bits - 96);
  } catch {
    return false;
  }
}

/** Whether `address` matches an allowlist entry (a single address or a CIDR range, IPv4 or IPv6). */
export function addressAllowed(address: string, allowlist: readonly string[]): boolean {
  const addr = parseAddress(address.trim());
  if (!addr) return false;
  return allowlist.some((entry) => entryMatches(addr, entry));
}

export function checkIpAllowlist(actor: TActor): void {
  const list = actor.organisation.ipAllowlist;
  if (list.length === 0) return;
  if (!actor.clientAddress || !addressAllowed(actor.clientAddress, list)) throw errors.ipNotAllowed();
}
