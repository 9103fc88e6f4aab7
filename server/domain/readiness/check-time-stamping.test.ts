/**
 * The time-stamping check against the loopback TSA (server/pdf/test-support/loopback-pki.ts): one real RFC 3161
 * request per configured URL, each answer checked as the seals' are; a TSA that answers garbage or nothing fails,
 * one of two failing warns; credentials in a TSA URL never reach the report.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseEnv } from "@/server/env";
import { startLoopbackPki, type TLoopbackPki } from "@/server/pdf/test-support/loopback-pki";
import { checkTimeStamping } from "./check-time-stamping";
import { readinessContext, runReadiness } from "./run-readiness";

let pki: TLoopbackPki;
beforeAll(async () => {
  pki = await startLoopbackPki();
}, 120_000);
afterAll(() => pki.close());

const ctx = (TSA_URLS: string) =>
  readinessContext(null, { env: parseEnv({ TSA_URLS, TSA_TIMEOUT_MS: "3000" }), resolver: async () => [{ address: "93.184.215.14", family: 4 }] });

describe("time-stamping", () => {
  it("warns when no TSA is configured (seals carry this server's clock only)", async () => {
    const c = await checkTimeStamping(ctx(""));
    expect(c.status).toBe("warn");
    expect(c.action).toMatch(/^Set TSA_URLS/);
  });

  it("ok when the TSA answers with a valid time-stamp: one request, its authority and certificate expiry", async () => {
    pki.setTsaMode("ok");
    const before = pki.seen.tsa;
    const c = await checkTimeStamping(ctx(pki.tsaUrl));
    expect(c.status).toBe("ok");
    expect(pki.seen.tsa - before).toBe(1);
    expect(c.facts).toHaveLength(1);
    expect(c.facts[0]!.label).toBe(pki.tsaUrl);
    expect(c.facts[0]!.value).toMatch(/^answered: .*CN=.*, time \d{4}-.*TSA certificate valid until \d{4}-/);
  });

  it("fails when the only TSA answers garbage; warns when one of two does not answer", async () => {
    pki.setTsaMode("garbage");
    const bad = await checkTimeStamping(ctx(pki.tsaUrl));
    expect(bad.status).toBe("fail");
    expect(bad.facts[0]!.value).toBe("failed: the answer is not an RFC 3161 response");
    pki.setTsaMode("ok");
    const one = await checkTimeStamping(ctx(`http://127.0.0.1:1/tsa,${pki.tsaUrl}`));
    expect(one.status).toBe("warn");
    expect(one.action).toBe("Fix or remove http://127.0.0.1:1/tsa in TSA_URLS.");
  });

  it("never shows a TSA URL's credentials", async () => {
    pki.setTsaMode("reject");
    const withCredentials = pki.tsaUrl.replace("http://", "http://tsa-user:tsa-secret-99@");
    const report = await runReadiness(ctx(withCredentials));
    const c = report.checks.find((x) => x.name === "time-stamping")!;
    expect(c.status).toBe("fail");
    expect(c.facts[0]!.label).toBe(pki.tsaUrl.replace("http://", "http://***@"));
    expect(JSON.stringify(report)).not.toContain("tsa-secret-99");
    expect(JSON.stringify(report)).not.toContain("tsa-user");
    pki.setTsaMode("ok");
  });
});
