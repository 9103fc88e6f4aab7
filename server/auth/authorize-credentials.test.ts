/**
 * Who may sign in and keep acting: a removed user (deleted_at) or one without a membership is refused at
 * sign-in, and an existing session loses its actor as soon as the membership goes (loadSessionActor is read
 * on every request), so removing a member takes effect without waiting for the JWT to expire.
 * Password guessing is throttled, counted in the database: 10 failures per email and client address, 30 per
 * address, 100 per email (not from an address the email signed in from lately) in a sliding 15-minute window
 * refuse further attempts (even a right password) with the wait, measured on the injected clock.
 */
import { eq } from "drizzle-orm";
import { describe, expect, it, vi } from "vitest";
import { memberships, signInFailures, signInKnownAddresses, users } from "@/server/db/schema";
import { allJobs } from "@/server/jobs/all-jobs";
import { runDueItem } from "@/server/lib/jobs";
import { createOrganisationWithOwner as createParsedOrganisation } from "@/server/domain/organisation/create-organisation";
import { ZCreateOwner } from "@/server/domain/organisation/schemas";
import { viaBoundaryNoActor } from "@/server/test/boundary";
import { useTestDb } from "@/server/test/db";
import { CLIENT_ADDRESS_HEADER } from "@/server/http/steps/client-address";
import { setClock } from "@/server/lib/clock";
import { authorizeCredentials, signInClientAddress } from "./authorize-credentials";
import { MAX_FAILURES_PER_ADDRESS, MAX_FAILURES_PER_EMAIL, MAX_FAILURES_PER_PAIR, SIGN_IN_WINDOW_MS } from "./sign-in-throttle";
import { signInThrottleJobs } from "./sign-in-throttle-jobs";
import { parseSignInThrottled, throttledMessage } from "@/common/sign-in-throttled";
import { SignInThrottledError } from "./sign-in-throttled";
import { loadSessionActor } from "@/server/domain/access/load-session-actor";

const t = useTestDb();
// The setup route parses before the domain runs; these calls go through the same boundary (server/test/boundary.ts).
const createOrganisationWithOwner = viaBoundaryNoActor(ZCreateOwner, createParsedOrganisation);
const owner = { name: "Olga Owner", email: "Olga@Example.test", password: "correct horse battery", organisationName: "Acme" };
const NO_ADDRESS = { clientAddress: null };
const T0 = new Date("2026-04-01T09:00:00Z").getTime();
const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
const at = (ms: number) => setClock(() => new Date(T0 + ms));
const failureRows = async () => (await t.db.select({ id: signInFailures.id }).from(signInFailures)).length;

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
    expect(ok).toEqual({
      id: created.userId,
      name: "Olga Owner",
      email: "olga@example.test",
      organisationId: created.organisationId,
      credentialsVersion: 0,
      sessionId: expect.stringMatching(/^msn_[0-9a-f]{44}$/),
    });
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
  const OWNER_HOME = { clientAddress: "198.51.100.10" };
  const ATTACKER = { clientAddress: "203.0.113.7" };
  const attackerAt = (i: number) => ({ clientAddress: `203.0.113.${100 + i}` });
  const right = (from: { clientAddress: string | null }, email = owner.email) => authorizeCredentials(t.db, { email, password: owner.password }, from);
  const wrong = (from: { clientAddress: string | null }, email = owner.email) => authorizeCredentials(t.db, { email, password: "wrong password!" }, from);

  it("after 10 failures for an email from one address, refuses that pair (even the right password) with the wait, until the oldest leaves the window", async () => {
    expect([MAX_FAILURES_PER_PAIR, MAX_FAILURES_PER_ADDRESS, MAX_FAILURES_PER_EMAIL]).toEqual([10, 30, 100]);
    expect(SIGN_IN_WINDOW_MS).toBe(15 * MINUTE);
    const created = await createOrganisationWithOwner(t.db, owner);
    for (let i = 0; i < 10; i++) {
      at(i * MINUTE);
      expect(await authorizeCredentials(t.db, { email: owner.email, password: `guess ${i}` }, ATTACKER)).toBeNull();
    }
    at(10 * MINUTE);
    const err = await throttled(authorizeCredentials(t.db, { email: "OLGA@example.test", password: owner.password }, ATTACKER));
    // The first failure (T0) leaves the window at T0 + 15 min: 5 minutes from now.
    expect(err.retryAfterSeconds).toBe(5 * 60);
    expect(parseSignInThrottled(err.message)).toBe(300);
    expect(throttledMessage(300)).toBe("Too many attempts, try again in 5 minutes.");
    // Throttled attempts are not counted; the same address may still try other emails.
    expect(await failureRows()).toBe(10);
    expect(await wrong(ATTACKER, "nobody@example.test")).toBeNull();
    // The owner, from their own address (or from one our server could not determine), is not locked out.
    expect((await right(OWNER_HOME))?.id).toBe(created.userId);
    expect((await right(NO_ADDRESS))?.id).toBe(created.userId);

    at(15 * MINUTE - 1);
    const last = await throttled(right(ATTACKER));
    expect(last.retryAfterSeconds).toBe(1);
    expect(throttledMessage(last.retryAfterSeconds)).toBe("Too many attempts, try again in 1 minute.");

    at(15 * MINUTE);
    expect((await right(ATTACKER))?.id).toBe(created.userId);
  });

  it("a successful sign-in clears the failures of its email from its address", async () => {
    await createOrganisationWithOwner(t.db, owner);
    at(0);
    for (let i = 0; i < 9; i++) expect(await wrong(OWNER_HOME)).toBeNull();
    expect(await right(OWNER_HOME)).not.toBeNull();
    for (let i = 0; i < 10; i++) expect(await wrong(OWNER_HOME)).toBeNull();
    await throttled(wrong(OWNER_HOME));
  });

  it("after 30 failures from one address over many emails (unknown ones too), refuses that address only", async () => {
    const created = await createOrganisationWithOwner(t.db, owner);
    const sprayer = { clientAddress: "2001:db8::7" };
    at(0);
    for (let i = 0; i < 30; i++) {
      expect(await authorizeCredentials(t.db, { email: `user${i}@example.test`, password: "password1" }, sprayer)).toBeNull();
    }
    at(2 * MINUTE);
    const err = await throttled(right(sprayer));
    expect(err.retryAfterSeconds).toBe(13 * 60);
    // The same account from another address, or with no recorded address, still signs in.
    expect((await right({ clientAddress: "2001:db8::8" }))?.id).toBe(created.userId);
    expect((await right(NO_ADDRESS))?.id).toBe(created.userId);
    at(15 * MINUTE);
    expect((await right(sprayer))?.id).toBe(created.userId);
  });

  /*
   * Regression (issue 24, item 9): 10 failures for an email from anywhere locked the real owner out. An
   * attacker spread over many addresses now meets the email's limit of 100 — but not the owner, from an
   * address they signed in from during the last 30 days.
   */
  it("an attacker spread over many addresses is refused after 100 failures for the email; the owner still signs in from their own address", async () => {
    const created = await createOrganisationWithOwner(t.db, owner);
    at(-DAY);
    expect(await right(OWNER_HOME)).not.toBeNull(); // yesterday: the owner's address becomes known
    for (let a = 0; a < 10; a++) {
      at(a * MINUTE);
      for (let i = 0; i < 10; i++) expect(await wrong(attackerAt(a))).toBeNull();
      await throttled(wrong(attackerAt(a))); // each pair stops at 10
    }
    at(10 * MINUTE);
    // A new address: the email's 100 failures; the oldest ten leave the window at 15 min.
    expect((await throttled(wrong(attackerAt(10)))).retryAfterSeconds).toBe(5 * 60);
    expect((await throttled(right(attackerAt(11)))).retryAfterSeconds).toBe(5 * 60);
    expect(await failureRows()).toBe(100);

    // The owner, from home: not locked out, and their own typos count only against themselves.
    for (let i = 0; i < 9; i++) expect(await wrong(OWNER_HOME)).toBeNull();
    expect((await right(OWNER_HOME))?.id).toBe(created.userId);
    // From an address never signed in from (travelling, or undeterminable), the email's limit applies.
    await throttled(right({ clientAddress: "192.0.2.55" }));
    await throttled(right(NO_ADDRESS));
  });

  it("an address stops being the owner's after 30 days without a sign-in from it", async () => {
    await createOrganisationWithOwner(t.db, owner);
    at(-30 * DAY);
    expect(await right(OWNER_HOME)).not.toBeNull();
    for (let a = 0; a < 10; a++) {
      at(a);
      for (let i = 0; i < 10; i++) expect(await wrong(attackerAt(a))).toBeNull();
    }
    at(10);
    await throttled(right(OWNER_HOME));
  });

  /*
   * Regression (issue 24, item 9): the counts lived in each process's memory, so two replicas allowed 20
   * guesses per email and a restart allowed 10 more. Each "process" here is a fresh copy of the sign-in
   * modules (vi.resetModules) with a global slot of its own where the old in-memory throttle kept its counts
   * (swapped in around each of its calls): the processes share only the database.
   */
  it("two replicas and a restart share one count: 10 failures per pair in all, not 10 each", async () => {
    await createOrganisationWithOwner(t.db, owner);
    at(0);
    const oldSlot = Symbol.for("foliosign.sign-in-throttle");
    const globals = globalThis as Record<symbol, unknown>;
    const freshProcess = async () => {
      vi.resetModules();
      const authorize = (await import("./authorize-credentials")).authorizeCredentials;
      let memory: unknown;
      return async (password: string, from: { clientAddress: string | null }) => {
        globals[oldSlot] = memory;
        try {
          return await authorize(t.db, { email: owner.email, password }, from);
        } finally {
          memory = globals[oldSlot];
          delete globals[oldSlot];
        }
      };
    };
    const replicaA = await freshProcess();
    const replicaB = await freshProcess();
    for (let i = 0; i < 5; i++) {
      expect(await replicaA(`a ${i}`, ATTACKER)).toBeNull();
      expect(await replicaB(`b ${i}`, ATTACKER)).toBeNull();
    }
    // Each copy has its own SignInThrottledError class: compare by name and wait.
    const refusedFor15Minutes = { name: "SignInThrottledError", retryAfterSeconds: 15 * 60 };
    await expect(replicaA(owner.password, ATTACKER)).rejects.toMatchObject(refusedFor15Minutes);
    await expect(replicaB(owner.password, ATTACKER)).rejects.toMatchObject(refusedFor15Minutes);
    const restarted = await freshProcess();
    await expect(restarted(owner.password, ATTACKER)).rejects.toMatchObject(refusedFor15Minutes);
    expect(await restarted(owner.password, OWNER_HOME)).not.toBeNull();
  });

  it("concurrent guesses never pass the limit: of 25 at once from one address, at most 10 are checked", async () => {
    await createOrganisationWithOwner(t.db, owner);
    at(0);
    const results = await Promise.allSettled(
      Array.from({ length: 25 }, (_, i) => authorizeCredentials(t.db, { email: owner.email, password: `burst ${i}` }, ATTACKER)),
    );
    const checked = results.filter((r) => r.status === "fulfilled").length;
    expect(checked).toBeLessThanOrEqual(10);
    for (const r of results) if (r.status === "rejected") expect(r.reason).toBeInstanceOf(SignInThrottledError);
    // Each checked guess is a counted failure; each refused one left no row, so the pair has exactly its
    // remaining tries afterwards. (A burst that races its own counts may be refused early — here often
    // entirely — never late: a check-then-record throttle let all 25 through.)
    expect(await failureRows()).toBe(checked);
    for (let i = checked; i < 10; i++) expect(await wrong(ATTACKER)).toBeNull();
    await throttled(wrong(ATTACKER));
  });

  it("the prune jobs delete failures past the window and known addresses past 30 days, and nothing newer", async () => {
    await createOrganisationWithOwner(t.db, owner);
    at(-31 * DAY);
    expect(await right({ clientAddress: "192.0.2.1" })).not.toBeNull();
    at(-29 * DAY);
    expect(await right({ clientAddress: "192.0.2.2" })).not.toBeNull();
    at(-SIGN_IN_WINDOW_MS);
    expect(await wrong(ATTACKER)).toBeNull();
    at(-SIGN_IN_WINDOW_MS + 1);
    expect(await wrong(ATTACKER)).toBeNull();
    const jobs = signInThrottleJobs();
    const workerJobs = allJobs();
    expect(workerJobs.map((j) => j.name)).toEqual(expect.arrayContaining(["sign-in-prune-failures", "sign-in-prune-known-addresses"]));
    await Promise.all(workerJobs.map((j) => j.stop?.()));
    const ctx = { at: new Date(T0), skip: [] };
    const failures = await runDueItem(t.db, jobs.pruneFailures, ctx);
    expect(failures?.error).toBeUndefined();
    expect(failures?.item.ids).toHaveLength(1);
    expect(await runDueItem(t.db, jobs.pruneFailures, ctx)).toBeUndefined();
    expect((await t.db.select({ at: signInFailures.failedAt }).from(signInFailures)).map((r) => r.at.getTime())).toEqual([T0 - SIGN_IN_WINDOW_MS + 1]);
    const known = await runDueItem(t.db, jobs.pruneKnownAddresses, ctx);
    expect(known?.item.ids).toHaveLength(1);
    expect(await runDueItem(t.db, jobs.pruneKnownAddresses, ctx)).toBeUndefined();
    expect((await t.db.select({ address: signInKnownAddresses.clientAddress }).from(signInKnownAddresses)).map((r) => r.address)).toEqual(["192.0.2.2"]);
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

  /* A lone UTF-16 surrogate is ill-formed Unicode: refused like at the API's boundary, before a throttle row is written
     (a text column would have stored it as U+FFFD, counting a failure against another email). */
  it("refuses an email or password with a lone surrogate without querying or counting", async () => {
    await createOrganisationWithOwner(t.db, owner);
    const address = { clientAddress: "192.0.2.77" };
    await expect(authorizeCredentials(t.db, { email: "olga@example.test\ud800", password: owner.password }, address)).resolves.toBeNull();
    await expect(authorizeCredentials(t.db, { email: owner.email, password: `${owner.password}\udc00` }, address)).resolves.toBeNull();
    expect(await t.db.select().from(signInFailures)).toEqual([]);
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
