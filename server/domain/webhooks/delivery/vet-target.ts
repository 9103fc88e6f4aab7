/**
 * Decides whether a webhook URL may be called, and at which address. Used at registration (→ 422 on `url`)
 * and again before every attempt (a private answer then → EXHAUSTED at once): the address returned here is the
 * only one the request may connect to (post-webhook.ts pins it), so a DNS answer that changes between this
 * check and the connection (rebinding) cannot redirect us.
 *
 * The WHATWG URL parser already normalises decimal, octal and hex IPv4 hosts (2130706433, 0177.0.0.1, 0x7f.1
 * → 127.0.0.1), so they are judged as the address they are.
 */
import ipaddr from "ipaddr.js";
import { isPublicAddress } from "./is-public-address";
import { resolveHost } from "./resolver";
import type { TAbortable } from "./attempt-signal";

export type TVetRefusal = "invalid_url" | "private_address" | "unresolvable";

export type TVetResult = { ok: true; url: URL; address: string; family: 4 | 6 } | { ok: false; reason: TVetRefusal; message: string };

export type TVetOptions = {
  /** Development switch WEBHOOK_ALLOW_PRIVATE_TARGETS: http and private/loopback targets are allowed. */
  allowPrivate: boolean;
  /**
   * The attempt (at send time): the DNS lookup is abandoned when its deadline fires, so a resolver that never
   * answers cannot hold a delivery past the 10 s that cover the whole attempt.
   */
  attempt?: TAbortable;
};

/** The lookup, or a rejection as soon as the attempt is cut short (the lookup itself cannot be cancelled; it is dropped). */
function resolveWithin(host: string, attempt: TAbortable | undefined) {
  if (!attempt) return resolveHost(host);
  if (attempt.aborted) return Promise.reject(new Error("deadline"));
  return new Promise<Awaited<ReturnType<typeof resolveHost>>>((resolve, reject) => {
    const unsubscribe = attempt.onAbort(() => reject(new Error("deadline")));
    resolveHost(host).then(
      (v) => {
        unsubscribe();
        resolve(v);
      },
      (e: unknown) => {
        unsubscribe();
        reject(e instanceof Error ? e : new Error(String(e)));
      },
    );
  });
}

const refuse = (reason: TVetRefusal, message: string): TVetResult => ({ ok: false, reason, message });

export async function vetTarget(raw: string, opts: TVetOptions): Promise<TVetResult> {
  if (!URL.canParse(raw)) return refuse("invalid_url", "Must be a valid URL");
  const url = new URL(raw);
  const httpAllowed = opts.allowPrivate && url.protocol === "http:";
  if (url.protocol !== "https:" && !httpAllowed) return refuse("invalid_url", "Must be an https:// URL");
  if (url.username || url.password) return refuse("invalid_url", "Must not contain a user name or password");
  const host = url.hostname.replace(/^\[(.*)\]$/, "$1");
  if (!host) return refuse("invalid_url", "Must name a host");

  let addresses: string[];
  if (ipaddr.isValid(host)) {
    addresses = [host];
  } else if (/(^|\.)localhost\.?$/i.test(host) && !opts.allowPrivate) {
    return refuse("private_address", "Must not point at a private, loopback or link-local address");
  } else {
    try {
      addresses = (await resolveWithin(host, opts.attempt)).map((a) => a.address);
    } catch {
      if (opts.attempt?.aborted) return refuse("unresolvable", "Host did not resolve before the deadline");
      return refuse("unresolvable", "Host does not resolve");
    }
    if (addresses.length === 0) return refuse("unresolvable", "Host does not resolve");
  }
  if (!opts.allowPrivate && !addresses.every(isPublicAddress)) {
    return refuse("private_address", "Must not point at a private, loopback or link-local address");
  }
  const address = addresses[0]!;
  return { ok: true, url, address, family: ipaddr.parse(address).kind() === "ipv6" ? 6 : 4 };
}
