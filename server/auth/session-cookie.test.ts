/**
 * The app reads who signed in from next-auth's session cookie itself (session-cookie.ts), then loads the member
 * once: the identity is the JWT's claims when the cookie decrypts with our secret and has not expired, from the
 * plain or the `__Secure-` cookie as next-auth names it, whole or in chunks; anything else is nobody.
 */
import { encode } from "next-auth/jwt";
import { afterEach, describe, expect, it } from "vitest";
import { identityFromSessionCookies } from "./session-cookie";

const SECRET = "a-test-secret-of-at-least-32-characters!";
const CLAIMS = { userId: "usr_1", organisationId: "org_1", credentialsVersion: 2, sessionId: "msn_1" };
const mint = (token: Record<string, unknown>, opts: { secret?: string; maxAge?: number } = {}) =>
  encode({ token, secret: opts.secret ?? SECRET, maxAge: opts.maxAge ?? 60 });

const originalUrl = process.env.NEXTAUTH_URL;
afterEach(() => {
  if (originalUrl === undefined) delete process.env.NEXTAUTH_URL;
  else process.env.NEXTAUTH_URL = originalUrl;
});

describe("identityFromSessionCookies", () => {
  it("reads user, organisation, credentials version and session from the session cookie", async () => {
    process.env.NEXTAUTH_URL = "http://127.0.0.1:3000";
    const cookies = { "next-auth.session-token": await mint(CLAIMS), other: "x" };
    expect(await identityFromSessionCookies(cookies, SECRET)).toEqual(CLAIMS);
  });

  it("a session from before credentials versions is version 0; one from before session rows has the empty id", async () => {
    process.env.NEXTAUTH_URL = "http://127.0.0.1:3000";
    const cookies = { "next-auth.session-token": await mint({ userId: "usr_1", organisationId: "org_1" }) };
    expect(await identityFromSessionCookies(cookies, SECRET)).toEqual({ userId: "usr_1", organisationId: "org_1", credentialsVersion: 0, sessionId: "" });
  });

  it("is nobody without the cookie, with another secret, a tampered or an expired token, or claims naming nobody", async () => {
    process.env.NEXTAUTH_URL = "http://127.0.0.1:3000";
    const good = await mint(CLAIMS);
    const tampered = good.slice(0, -4) + (good.endsWith("AAAA") ? "BBBB" : "AAAA");
    const cases: Record<string, string>[] = [
      {},
      { "next-auth.session-token": await mint(CLAIMS, { secret: "another-secret-of-at-least-32-characters" }) },
      { "next-auth.session-token": tampered },
      { "next-auth.session-token": await mint(CLAIMS, { maxAge: -60 }) },
      { "next-auth.session-token": await mint({ userId: "usr_1" }) },
      { "next-auth.session-token": "not a token" },
    ];
    expect(await Promise.all(cases.map((cookies) => identityFromSessionCookies(cookies, SECRET)))).toEqual(cases.map(() => null));
  });

  it("behind HTTPS reads next-auth's __Secure- cookie, and only that one", async () => {
    process.env.NEXTAUTH_URL = "https://sign.example.com";
    const token = await mint(CLAIMS);
    expect(await identityFromSessionCookies({ "__Secure-next-auth.session-token": token }, SECRET)).toEqual(CLAIMS);
    expect(await identityFromSessionCookies({ "next-auth.session-token": token }, SECRET)).toBeNull();
  });

  it("reads a token next-auth split into chunks", async () => {
    process.env.NEXTAUTH_URL = "http://127.0.0.1:3000";
    const token = await mint(CLAIMS);
    const half = Math.ceil(token.length / 2);
    const cookies = { "next-auth.session-token.0": token.slice(0, half), "next-auth.session-token.1": token.slice(half) };
    expect(await identityFromSessionCookies(cookies, SECRET)).toEqual(CLAIMS);
  });
});
