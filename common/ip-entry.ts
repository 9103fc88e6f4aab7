/**
 * An IP allowlist entry as the owner types it, validated strictly: a plain IPv4 address in dotted-quad form,
 * an IPv6 address (no zone), or either with a CIDR prefix. ipaddr.js alone also accepts legacy spellings
 * such as `10.1` or `0x7f.1`, which would silently mean something other than what the owner read.
 * Shared by the browser (the editor checks as the owner types) and the server (the schema, env parsing).
 */
import ipaddr from "ipaddr.js";

const DECIMAL = /^(0|[1-9]\d{0,2})$/;

function isAddress(text: string): "ipv4" | "ipv6" | null {
  if (ipaddr.IPv4.isValidFourPartDecimal(text) && text.split(".").every((p) => DECIMAL.test(p))) return "ipv4";
  if (!text.includes("%") && text.includes(":") && ipaddr.IPv6.isValid(text)) return "ipv6";
  return null;
}

export function isIpOrCidr(value: string): boolean {
  const parts = value.split("/");
  if (parts.length > 2) return false;
  const kind = isAddress(parts[0] ?? "");
  if (!kind) return false;
  if (parts.length === 1) return true;
  const bits = parts[1] ?? "";
  return DECIMAL.test(bits) && Number(bits) <= (kind === "ipv4" ? 32 : 128);
}

export const IP_ENTRY_MESSAGE = "Enter an IPv4 or IPv6 address, or a CIDR range such as 203.0.113.0/24";
