/**
 * DNS resolution for webhook targets, injectable: tests replace it with `setResolver()` so no test ever asks
 * a real resolver (and rebinding can be played out: one answer at registration, another at send time).
 */
import { lookup } from "node:dns/promises";

export type TResolvedAddress = { address: string; family: number };
export type TResolver = (hostname: string) => Promise<TResolvedAddress[]>;

const defaultResolver: TResolver = (hostname) => lookup(hostname, { all: true, verbatim: true });

const KEY = Symbol.for("foliosign.webhookResolver");
const slot = globalThis as Record<symbol, TResolver | undefined>;

export function resolveHost(hostname: string): Promise<TResolvedAddress[]> {
  return (slot[KEY] ?? defaultResolver)(hostname);
}

export function setResolver(resolver: TResolver | undefined): void {
  slot[KEY] = resolver;
}
