/**
 * Protects the SSRF defence: every URL below must be refused, and refused without a socket ever being opened
 * (DNS is injected with setResolver; net/tls connect are spied on). Includes IPv4 spelled in decimal, octal and
 * hex, IPv4 inside IPv6, userinfo, `localhost`, a name with one private address among public ones, and DNS
 * rebinding (public when registered, private when sent). WEBHOOK_ALLOW_PRIVATE_TARGETS is off here.
 */
import net from "node:net";
import tls from "node:tls";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { setResolver, type TResolvedAddress } from "./resolver";
import { vetTarget } from "./vet-target";

const DNS: Record<string, string[]> = {
  "public.example": ["93.184.216.34"],
  "public6.example": ["2606:2800:220:1:248:1893:25c8:1946"],
  "mixed.example": ["93.184.216.34", "10.0.0.5"],
  "mixed6.example": ["2606:2800:220:1:248:1893:25c8:1946", "::1"],
  "metadata.example": ["169.254.169.254"],
  "loop.example": ["127.0.0.1"],
  "mapped.example": ["::ffff:192.168.0.10"],
};
let lookups: string[] = [];

beforeEach(() => {
  lookups = [];
  setResolver(async (host): Promise<TResolvedAddress[]> => {
    lookups.push(host);
    const answer = DNS[host];
    if (!answer) throw Object.assign(new Error(`ENOTFOUND ${host}`), { code: "ENOTFOUND" });
    return answer.map((address) => ({ address, family: address.includes(":") ? 6 : 4 }));
  });
});
afterEach(() => {
  setResolver(undefined);
  vi.restoreAllMocks();
});

const REFUSED: [string, string, "invalid_url" | "private_address" | "unresolvable"][] = [
  ["10/8", "https://10.0.0.1/hook", "private_address"],
  ["10/8 top", "https://10.255.255.254/", "private_address"],
  ["172.16/12", "https://172.16.0.1/", "private_address"],
  ["172.16/12 top", "https://172.31.255.254/", "private_address"],
  ["192.168/16", "https://192.168.1.1/", "private_address"],
  ["127/8", "https://127.0.0.1/", "private_address"],
  ["127/8 other", "https://127.8.9.10:8443/x", "private_address"],
  ["cloud metadata", "https://169.254.169.254/latest/meta-data/", "private_address"],
  ["100.64/10 CGNAT", "https://100.64.0.1/", "private_address"],
  ["100.64/10 top", "https://100.127.255.254/", "private_address"],
  ["0.0.0.0", "https://0.0.0.0/", "private_address"],
  ["multicast", "https://224.0.0.1/", "private_address"],
  ["broadcast", "https://255.255.255.255/", "private_address"],
  ["documentation range", "https://192.0.2.1/", "private_address"],
  ["::1", "https://[::1]/", "private_address"],
  ["::", "https://[::]/", "private_address"],
  ["fe80::/10", "https://[fe80::1]/", "private_address"],
  ["fe80::/10 top", "https://[febf::1]/", "private_address"],
  ["fc00::/7", "https://[fc00::1]/", "private_address"],
  ["fd00::/8", "https://[fd12:3456::1]/", "private_address"],
  ["v4-mapped loopback", "https://[::ffff:127.0.0.1]/", "private_address"],
  ["v4-mapped private", "https://[::ffff:10.0.0.1]/", "private_address"],
  ["v4-compatible", "https://[::127.0.0.1]/", "private_address"],
  ["NAT64", "https://[64:ff9b::7f00:1]/", "private_address"],
  ["6to4", "https://[2002:7f00:1::]/", "private_address"],
  ["decimal host", "https://2130706433/", "private_address"],
  ["octal host", "https://0177.0.0.1/", "private_address"],
  ["hex host", "https://0x7f.1/", "private_address"],
  ["hex dword host", "https://0x7f000001/", "private_address"],
  ["localhost", "https://localhost/", "private_address"],
  ["sub.localhost", "https://api.localhost./", "private_address"],
  ["userinfo", "https://user:pass@public.example/", "invalid_url"],
  ["user only", "https://user@93.184.216.34/", "invalid_url"],
  ["mixed public/private v4", "https://mixed.example/", "private_address"],
  ["mixed public/private v6", "https://mixed6.example/", "private_address"],
  ["name → metadata", "https://metadata.example/", "private_address"],
  ["name → loopback", "https://loop.example/", "private_address"],
  ["name → v4-mapped private", "https://mapped.example/", "private_address"],
  ["plain http", "http://93.184.216.34/", "invalid_url"],
  ["other scheme", "ftp://public.example/", "invalid_url"],
  ["not a URL", "not a url", "invalid_url"],
  ["does not resolve", "https://nowhere.example/", "unresolvable"],
];

describe("vetTarget refuses", () => {
  it.each(REFUSED)("%s: %s", async (_label, url, reason) => {
    const netConnect = vi.spyOn(net.Socket.prototype, "connect");
    const tlsConnect = vi.spyOn(tls, "connect");
    const result = await vetTarget(url, { allowPrivate: false });
    expect(result).toMatchObject({ ok: false, reason });
    expect(netConnect).not.toHaveBeenCalled();
    expect(tlsConnect).not.toHaveBeenCalled();
  });

  it("has at least 30 cases", () => {
    expect(REFUSED.length).toBeGreaterThanOrEqual(30);
  });
});

describe("vetTarget accepts public targets and pins the address", () => {
  it.each([
    ["https://93.184.216.34/hook", "93.184.216.34", 4],
    ["https://[2606:2800:220:1:248:1893:25c8:1946]/", "2606:2800:220:1:248:1893:25c8:1946", 6],
    ["https://public.example/path?q=1", "93.184.216.34", 4],
    ["https://public6.example/", "2606:2800:220:1:248:1893:25c8:1946", 6],
  ] as const)("%s", async (url, address, family) => {
    const result = await vetTarget(url, { allowPrivate: false });
    expect(result).toMatchObject({ ok: true, address, family });
  });

  it("refuses a rebinding name: public when registered, private when sent", async () => {
    let answer = "93.184.216.34";
    setResolver(async () => [{ address: answer, family: 4 }]);
    expect(await vetTarget("https://rebind.example/", { allowPrivate: false })).toMatchObject({ ok: true });
    answer = "127.0.0.1";
    const netConnect = vi.spyOn(net.Socket.prototype, "connect");
    expect(await vetTarget("https://rebind.example/", { allowPrivate: false })).toMatchObject({
      ok: false,
      reason: "private_address",
    });
    expect(netConnect).not.toHaveBeenCalled();
  });

  it("allows http and loopback only with the development switch", async () => {
    expect(await vetTarget("http://127.0.0.1:9/", { allowPrivate: true })).toMatchObject({ ok: true, address: "127.0.0.1" });
    expect(await vetTarget("http://127.0.0.1:9/", { allowPrivate: false })).toMatchObject({ ok: false });
  });
});
