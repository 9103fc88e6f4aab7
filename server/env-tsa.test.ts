/**
 * Time-stamping configuration (issue 20): TSA_URLS is a list tried in order, checked at start (a typo fails
 * fast, naming the variable but never echoing a URL that may carry a password), and unset means "no TSA".
 */
import { describe, expect, it } from "vitest";
import { EnvError, parseEnv } from "./env";
import { redactUrl } from "./lib/redact-url";

describe("TSA configuration", () => {
  it("defaults: no TSA, 10 s timeout, renewal 180 days ahead", () => {
    const e = parseEnv({});
    expect(e.TSA_URLS).toEqual([]);
    expect(e.TSA_TIMEOUT_MS).toBe(10_000);
    expect(e.EVIDENCE_RENEWAL_DAYS).toBe(180);
  });

  it("splits TSA_URLS on commas, in order, ignoring blanks", () => {
    const e = parseEnv({ TSA_URLS: " http://127.0.0.1:3999/tsr ,, https://u:p@tsa.example.com/ ", TSA_TIMEOUT_MS: "2500", EVIDENCE_RENEWAL_DAYS: "30" });
    expect(e.TSA_URLS).toEqual(["http://127.0.0.1:3999/tsr", "https://u:p@tsa.example.com/"]);
    expect(e.TSA_TIMEOUT_MS).toBe(2500);
    expect(e.EVIDENCE_RENEWAL_DAYS).toBe(30);
  });

  it("refuses a URL that is not http(s), without echoing its credentials", () => {
    let message = "";
    try {
      parseEnv({ TSA_URLS: "http://127.0.0.1/tsr,ftp://user:s3cret@tsa.example.com/" });
    } catch (err) {
      expect(err).toBeInstanceOf(EnvError);
      message = (err as Error).message;
    }
    expect(message).toContain("TSA_URLS: must be a comma-separated list of http:// or https:// URLs");
    expect(message).not.toContain("s3cret");
  });

  it("refuses a timeout or window out of range", () => {
    expect(() => parseEnv({ TSA_TIMEOUT_MS: "5" })).toThrow(/TSA_TIMEOUT_MS/);
    expect(() => parseEnv({ EVIDENCE_RENEWAL_DAYS: "0" })).toThrow(/EVIDENCE_RENEWAL_DAYS/);
  });

  it("redacts credentials from a URL before it is logged or shown", () => {
    expect(redactUrl("https://user:s3cret@tsa.example.com/tsr")).toBe("https://***@tsa.example.com/tsr");
    expect(redactUrl("http://127.0.0.1:3999/tsr")).toBe("http://127.0.0.1:3999/tsr");
    expect(redactUrl("not a url s3cret")).toBe("(not a URL)");
  });
});
