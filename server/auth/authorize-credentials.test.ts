/**
 * Who may sign in and keep acting: a removed user (deleted_at) or one without a membership is refused at
 * sign-in, and an existing session loses its actor as soon as the membership goes (loadSessionActor is read
 * on every request), so removing a member takes effect without waiting for the JWT to expire.
 * Password guessing is throttled: 10 failures per email or 30 per client address in a sliding 15-minute
 * window refuse further attempts (even a right password) with the wait, measured on the injected clock.
 */
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { memberships, users } from "@/server/db/schema";
import { createOrganisationWithOwner } from "@/server/domain/organisation/create-organisation";
import { useTestDb } from "@/server/test/db";
import { CLIENT_ADDRESS_HEADER } from "@/server/http/steps/client-address";
import { setClock } from "@/server/lib/clock";
import { authorizeCredentials, signInClientAddress } from "./authorize-credentials";
import { MAX_FAILURES_PER_ADDRESS, MAX_FAILURES_PER_EMAIL, SIGN_IN_WINDOW_MS } from "./sign-in-throttle";
import { parseSignInThrottled, throttledMessage } from "@/common/sign-in-throttled";
import { SignInThrottledError } from "./sign-in-throttled";
import { loadSessionActor } from "@/server/domain/access/load-session-actor";

const t = useTestDb();
const owner = { name: "Olga Owner", email: "Olga@Example.test", password: "correct horse battery", organisationName: "Acme" };
const NO_ADDRESS = { clientAddress: null };
const T0 = new Date("2026-04-01T09:00:00Z").getTime();
const MINUTE = 60_000;
const at = (ms: number) => setClock(() => new Date(T0 + ms));

async function throttled(promise: Promise<unknown>): Promise<SignInThrottledError> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(SignInThrottledError);
  return err as SignInThrottledError;
}

describe("authorizeCredentials", () => {
  it("accepts the right password (email case-insensitive) and refuses a wrong one or an unknown email", async () => {
    const created = await createOrganisationWithOwner(t.db, owner);
    const ok = await authorizeCredentials(t.db, { email: "olga@example.TEST", password: owner.password }, NO_ADDRESS);
    expect(ok).toEqual({ id: created.userId, name: "Olga Owner", email: "olga@example.test", organisationId: created.organisationId });
    expect(await authorizeCredentials(t.db, { email: owner.email, password: "wrong password!" }, NO_ADDRESS)).toBeNull();
    expect(await authorizeCredentials(t.db, { email: "nobody@example.test", password: owner.password }, NO_ADDRESS)).toBeNull();
    expect(await authorizeCredentials(t.db, { email: owner.email }, NO_ADDRESS)).toBeNull();
  });

  it("refuses a user without a membership", async () => {
    const created = await createOrganisationWithOwner(t.db, owner);
    await t.db.delete(memberships).where(eq(memberships.userId, created.userId));
    expect(await authorizeCredentials(t.db, { email: owner.email, password: owner.password }, NO_ADDRESS)).toBeNull();
  });

  it("refuses a user marked deleted", async () => {
    const created = await createOrganisationWithOwner(t.db, owner);
    await t.db.update(users).set({ deletedAt: new Date() }).where(eq(users.id, created.userId));
    expect(await authorizeCredentials(t.db, { email: owner.email, password: owner.password }, NO_ADDRESS)).toBeNull();
  });
});

describe("sign-in throttling", () => {
  it("after 10 failures for an email, refuses even the right password with the wait, until the oldest leaves the window", async () => {
    expect(MAX_FAILURES_PER_EMAIL).toBe(10);
    expect(SIGN_IN_WINDOW_MS).toBe(15 * MINUTE);
    const created = await createOrganisationWithOwner(t.db, owner);
    // One failure a minute, each from a different address, so only the email's count can trip.
    for (let i = 0; i < 10; i++) {
      at(i * MINUTE);
      expect(await authorizeCredentials(t.db, { email: owner.email, password: `guess ${i}` }, { clientAddress: `203.0.113.${i}` })).toBeNull();
    }
    at(10 * MINUTE);
    const err = await throttled(authorizeCredentials(t.db, { email: "OLGA@example.test", password: owner.password }, { clientAddress: "198.51.100.1" }));
    // The first failure (T0) leaves the window at T0 + 15 min: 5 minutes from now.
    expect(err.retryAfterSeconds).toBe(5 * 60);
    expect(parseSignInThrottled(err.message)).toBe(300);
    expect(throttledMessage(300)).toBe("Too many attempts, try again in 5 minutes.");
    // Throttled attempts are not counted, and other emails are not affected.
    expect(await authorizeCredentials(t.db, { email: "nobody@example.test", password: "x" }, NO_ADDRESS)).toBeNull();

    at(15 * MINUTE - 1);
    const last = await throttled(authorizeCredentials(t.db, { email: owner.email, password: owner.password }, NO_ADDRESS));
    expect(last.retryAfterSeconds).toBe(1);
    expect(throttledMessage(last.retryAfterSeconds)).toBe("Too many attempts, try again in 1 minute.");

    at(15 * MINUTE);
    const ok = await authorizeCredentials(t.db, { email: owner.email, password: owner.password }, NO_ADDRESS);
    expect(ok?.id).toBe(created.userId);
  });

  it("a successful sign-in clears the email's failures", async () => {
    await createOrganisationWithOwner(t.db, owner);
    at(0);
    const wrong = () => authorizeCredentials(t.db, { email: owner.email, password: "wrong password!" }, NO_ADDRESS);
    for (let i = 0; i < 9; i++) expect(await wrong()).toBeNull();
    expect(await authorizeCredentials(t.db, { email: owner.email, password: owner.password }, NO_ADDRESS)).not.toBeNull();
    for (let i = 0; i < 10; i++) expect(await wrong()).toBeNull();
    await throttled(wrong());
  });

  it("after 30 failures from one address over many emails (unknown ones too), refuses that address only", async () => {
    expect(MAX_FAILURES_PER_ADDRESS).toBe(30);
    const created = await createOrganisationWithOwner(t.db, owner);
    const attacker = { clientAddress: "2001:db8::7" };
    at(0);
    for (let i = 0; i < 30; i++) {
      expect(await authorizeCredentials(t.db, { email: `user${i}@example.test`, password: "password1" }, attacker)).toBeNull();
    }
    at(2 * MINUTE);
    const err = await throttled(authorizeCredentials(t.db, { email: owner.email, password: owner.password }, attacker));
    expect(err.retryAfterSeconds).toBe(13 * 60);
    // The same account from another address, or with no recorded address, still signs in.
    expect((await authorizeCredentials(t.db, { email: owner.email, password: owner.password }, { clientAddress: "2001:db8::8" }))?.id).toBe(created.userId);
    expect((await authorizeCredentials(t.db, { email: owner.email, password: owner.password }, NO_ADDRESS))?.id).toBe(created.userId);
    at(15 * MINUTE);
    expect((await authorizeCredentials(t.db, { email: owner.email, password: owner.password }, attacker))?.id).toBe(created.userId);
  });

  it("a malformed attempt (no password) is neither checked nor counted", async () => {
    await createOrganisationWithOwner(t.db, owner);
    at(0);
    for (let i = 0; i < 20; i++) expect(await authorizeCredentials(t.db, { email: owner.email }, NO_ADDRESS)).toBeNull();
    expect(await authorizeCredentials(t.db, { email: owner.email, password: owner.password }, NO_ADDRESS)).not.toBeNull();
  });

  /* Regression: an email with a NUL character reached the users query, which PostgreSQL rejects (an error, not a refusal). */
  it("refuses an email with a NUL character like any malformed attempt, without querying", async () => {
    await createOrganisationWithOwner(t.db, owner);
    await expect(authorizeCredentials(t.db, { email: "olga@example.test\u0000", password: owner.password }, NO_ADDRESS)).resolves.toBeNull();
  });

  it("takes the client address only from the header our server records", () => {
    expect(signInClientAddress({ [CLIENT_ADDRESS_HEADER]: " 192.0.2.4 " })).toBe("192.0.2.4");
    expect(signInClientAddress({ "x-forwarded-for": "192.0.2.9", "x-real-ip": "192.0.2.9" })).toBeNull();
    expect(signInClientAddress({ [CLIENT_ADDRESS_HEADER]: "" })).toBeNull();
    expect(signInClientAddress({ [CLIENT_ADDRESS_HEADER]: ["192.0.2.4"] })).toBeNull();
    expect(signInClientAddress(undefined)).toBeNull();
  });
});

describe("loadSessionActor", () => {
  it("returns the current actor and organisation, and null once the member is removed", async () => {
    const created = await createOrganisationWithOwner(t.db, owner);
    const identity = { userId: created.userId, organisationId: created.organisationId };
    const current = await loadSessionActor(t.db, identity);
    expect(current).toMatchObject({
      user: { id: created.userId, email: "olga@example.test", name: "Olga Owner" },
      organisation: { id: created.organisationId, name: "Acme" },
      workspace: { id: created.workspaceId, isDefault: true },
      isOwner: true,
      role: { id: created.adminRoleId, templateAccess: "CREATE" },
      apiKey: null,
    });
    await t.db.update(users).set({ deletedAt: new Date() }).where(eq(users.id, created.userId));
    expect(await loadSessionActor(t.db, identity)).toBeNull();
  });
});
