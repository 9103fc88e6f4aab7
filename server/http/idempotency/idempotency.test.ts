/**
 * Idempotency-Key on the POSTs of /api/v1, through real route handlers on a real database: POST
 * /api/v1/webhooks (create an endpoint) is the operation under test, plus two test operations of this file
 * (one that fails with a 500 once, one that waits on a latch to hold a request in progress).
 * Webhook URLs are public IP literals: nothing is contacted.
 */
import { and, count, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { GET as listWebhooks, POST as createWebhook } from "@/app/api/v1/webhooks/route";
import { auditEvents, idempotencyKeys, roles, webhookEndpoints } from "@/server/db/schema";
import { defineOperation } from "@/server/domain/operation";
import { apiRoute } from "@/server/http/api-route";
import { buildOpenApiDocument } from "@/server/http/openapi";
import { resetEnvCache } from "@/server/env";
import { setClock } from "@/server/lib/clock";
import { runDueItem } from "@/server/lib/jobs";
import { z } from "@/server/lib/zod";
import { useTestDb } from "@/server/test/db";
import { createTestKey, createTestOrg, createTestRole } from "@/server/test/factories";
import { callRoute, type TCallOptions } from "@/server/test/http";
import { allJobs } from "@/server/jobs/all-jobs";
import { idempotencyJobs } from "./jobs";
import { IDEMPOTENCY_LEASE_MS } from "./reserve-idempotency-key";

const t = useTestDb();
const onPostgres = Boolean(process.env.DATABASE_URL);

const HOOK = { url: "https://93.184.216.34/hooks", description: "CRM" };
const MISMATCH = {
  error: "Idempotency-Key was used with a different request",
  details: { "Idempotency-Key": ["Idempotency-Key was used with a different request"] },
};

async function setup() {
  const org = await createTestOrg(t.db);
  const key = await createTestKey(t.db, org);
  return { org, key };
}

async function post(route: typeof createWebhook, key: string, idempotencyKey: string | undefined, opts: TCallOptions = {}) {
  const headers: Record<string, string> = idempotencyKey === undefined ? {} : { "Idempotency-Key": idempotencyKey };
  const res = await callRoute(route, { key, ...opts, headers: { ...headers, ...opts.headers } });
  return { status: res.status, text: await res.text(), replayed: res.headers.get("idempotent-replayed"), headers: res.headers };
}

async function countOf(table: typeof webhookEndpoints | typeof auditEvents | typeof idempotencyKeys) {
  const [row] = await t.db.select({ n: count() }).from(table);
  return row!.n;
}

// A test operation that fails with an unexpected error (500) the first time, then creates nothing and succeeds.
let flakyCalls = 0;
const flakyOp = defineOperation({
  operationId: "testFlaky",
  method: "POST",
  path: "/api/v1/test/flaky",
  summary: "t",
  tag: "Test",
  body: z.object({ n: z.number() }),
  response: z.object({ calls: z.number() }),
  successStatus: 201,
});
const flaky = apiRoute(flakyOp, async () => {
  flakyCalls += 1;
  if (flakyCalls === 1) throw new Error("database went away");
  return { calls: flakyCalls };
});

// A test operation held in progress until the test opens the latch.
let latch: { entered: () => void; open: Promise<void> } | undefined;
let slowCalls = 0;
const slowOp = defineOperation({ ...flakyOp, operationId: "testSlow", path: "/api/v1/test/slow" });
const slow = apiRoute(slowOp, async () => {
  slowCalls += 1;
  latch?.entered();
  await latch?.open;
  return { calls: slowCalls };
});

describe("Idempotency-Key on POST /api/v1", () => {
  it("replays the stored status and body for the same request, creating nothing new", async () => {
    const { key } = await setup();
    const first = await post(createWebhook, key.value, "create-1", { body: HOOK });
    expect(first.status).toBe(201);
    expect(first.replayed).toBeNull();
    const endpoints = await countOf(webhookEndpoints);
    const audits = await countOf(auditEvents);
    expect(endpoints).toBe(1);

    const again = await post(createWebhook, key.value, "create-1", { body: HOOK });
    expect(again.status).toBe(201);
    expect(again.text).toBe(first.text); // the same endpoint id and the same secret, byte for byte
    expect(again.replayed).toBe("true");
    expect(again.headers.get("content-type")).toContain("application/json");
    expect(again.headers.get("x-request-id")).not.toBe(first.headers.get("x-request-id"));
    expect(await countOf(webhookEndpoints)).toBe(endpoints);
    expect(await countOf(auditEvents)).toBe(audits);

    // Without the key the same body acts again: the replay above was the key's doing.
    expect((await post(createWebhook, key.value, undefined, { body: HOOK })).status).toBe(201);
    expect(await countOf(webhookEndpoints)).toBe(2);
  });

  it("answers 422 at Idempotency-Key for the same key with another body, path or even other body bytes", async () => {
    const { key } = await setup();
    expect((await post(createWebhook, key.value, "k", { body: HOOK })).status).toBe(201);
    const other = await post(createWebhook, key.value, "k", { body: { ...HOOK, description: "ERP" } });
    expect(other.status).toBe(422);
    expect(JSON.parse(other.text)).toEqual(MISMATCH);
    // The same JSON written differently is another request (the hash covers the raw bytes).
    const spaced = await post(createWebhook, key.value, "k", { rawBody: JSON.stringify(HOOK, null, 2), headers: { "content-type": "application/json" } });
    expect(spaced.status).toBe(422);
    expect(JSON.parse(spaced.text)).toEqual(MISMATCH);
    // Another POST path with the same key and body.
    const elsewhere = await post(flaky as typeof createWebhook, key.value, "k", { body: HOOK });
    expect(elsewhere.status).toBe(422);
    expect(await countOf(webhookEndpoints)).toBe(1);
  });

  it("replays a 422 validation answer instead of validating again", async () => {
    const { key } = await setup();
    const body = { url: "https://10.1.2.3/hooks" }; // private: refused unless the development switch is on
    const first = await post(createWebhook, key.value, "private-1", { body });
    expect(first.status).toBe(422);
    expect(JSON.parse(first.text).details.url).toBeDefined();
    process.env.WEBHOOK_ALLOW_PRIVATE_TARGETS = "true";
    resetEnvCache();
    try {
      const again = await post(createWebhook, key.value, "private-1", { body });
      expect(again.status).toBe(422);
      expect(again.text).toBe(first.text);
      expect(again.replayed).toBe("true");
      expect(await countOf(webhookEndpoints)).toBe(0);
      // The same request under a new key now succeeds: the 422 above came from the store, not from validation.
      expect((await post(createWebhook, key.value, "private-2", { body })).status).toBe(201);
    } finally {
      process.env.WEBHOOK_ALLOW_PRIVATE_TARGETS = "false";
      resetEnvCache();
    }
  });

  it("replays a 400 for a body that is not JSON", async () => {
    const { key } = await setup();
    const opts = { rawBody: "{not json", headers: { "content-type": "application/json" } };
    const first = await post(createWebhook, key.value, "bad-json", opts);
    expect(first.status).toBe(400);
    const again = await post(createWebhook, key.value, "bad-json", opts);
    expect([again.status, again.text, again.replayed]).toEqual([400, first.text, "true"]);
  });

  it("does not store a 500: the key is released and a retry with it acts", async () => {
    const { key } = await setup();
    flakyCalls = 0;
    const failed = await post(flaky as typeof createWebhook, key.value, "retry-me", { body: { n: 1 } });
    expect(failed.status).toBe(500);
    expect(await countOf(idempotencyKeys)).toBe(0);
    const retried = await post(flaky as typeof createWebhook, key.value, "retry-me", { body: { n: 1 } });
    expect([retried.status, JSON.parse(retried.text), retried.replayed]).toEqual([201, { data: { calls: 2 } }, null]);
    const replayed = await post(flaky as typeof createWebhook, key.value, "retry-me", { body: { n: 1 } });
    expect([replayed.status, replayed.text, replayed.replayed]).toEqual([201, retried.text, "true"]);
    expect(flakyCalls).toBe(2);
  });

  it("answers 409 while the first request with the key is in progress, then replays its answer", async () => {
    const { key } = await setup();
    slowCalls = 0;
    let open!: () => void;
    let entered!: () => void;
    const inHandler = new Promise<void>((resolve) => (entered = resolve));
    latch = { entered, open: new Promise<void>((resolve) => (open = resolve)) };
    try {
      const first = post(slow as typeof createWebhook, key.value, "slow", { body: { n: 1 } });
      await inHandler;
      const second = await post(slow as typeof createWebhook, key.value, "slow", { body: { n: 1 } });
      expect(second.status).toBe(409);
      expect(JSON.parse(second.text)).toEqual({ error: "A request with this Idempotency-Key is still in progress" });
      // Another request with the key while it runs is still a mismatch, not "in progress".
      expect((await post(slow as typeof createWebhook, key.value, "slow", { body: { n: 2 } })).status).toBe(422);
      open();
      expect((await first).status).toBe(201);
      const third = await post(slow as typeof createWebhook, key.value, "slow", { body: { n: 1 } });
      expect([third.status, third.replayed]).toEqual([201, "true"]);
      expect(slowCalls).toBe(1);
    } finally {
      open();
      latch = undefined;
    }
  });

  it("keeps a stored answer 24 hours on the injected clock; then the key acts afresh and the job prunes", async () => {
    const { key } = await setup();
    const t0 = new Date("2030-01-01T00:00:00Z");
    setClock(() => t0);
    const first = await post(createWebhook, key.value, "day", { body: HOOK });
    expect(first.status).toBe(201);
    setClock(() => new Date(t0.getTime() + 24 * 3600_000 - 1000));
    expect((await post(createWebhook, key.value, "day", { body: HOOK })).replayed).toBe("true");
    expect((await post(createWebhook, key.value, "day", { body: { ...HOOK, description: "x" } })).status).toBe(422);
    expect(await countOf(webhookEndpoints)).toBe(1);

    setClock(() => new Date(t0.getTime() + 24 * 3600_000));
    const later = await post(createWebhook, key.value, "day", { body: { ...HOOK, description: "x" } });
    expect([later.status, later.replayed]).toEqual([201, null]);
    expect(await countOf(webhookEndpoints)).toBe(2);

    // The prune job is one of the worker's jobs, and deletes expired rows only, in one batch.
    const workerJobs = allJobs();
    expect(workerJobs.map((j) => j.name)).toContain("idempotency-prune-expired");
    await Promise.all(workerJobs.map((j) => j.stop?.()));
    await post(createWebhook, key.value, "other", { body: HOOK }); // stored until t0 + 48 h
    await t.db.insert(idempotencyKeys).values([
      { id: "idem_old1", apiKeyId: key.id, key: "old-1", requestHash: "h", responseStatus: 201, responseBody: "{}", expiresAt: t0 },
      { id: "idem_old2", apiKeyId: key.id, key: "old-2", requestHash: "h", expiresAt: t0 },
    ]);
    const at = new Date(t0.getTime() + 25 * 3600_000);
    const job = idempotencyJobs().pruneExpired;
    const run = await runDueItem(t.db, job, { at, skip: [] });
    expect(run?.error).toBeUndefined();
    expect(run?.item.ids.sort()).toEqual(["idem_old1", "idem_old2"]);
    expect(await runDueItem(t.db, job, { at, skip: [] })).toBeUndefined();
    const left = await t.db.select({ key: idempotencyKeys.key }).from(idempotencyKeys);
    expect(left.map((r) => r.key).sort()).toEqual(["day", "other"]);
  });

  it("lets a reservation whose request never finished block its key only until its lease ends", async () => {
    const { key } = await setup();
    const t0 = new Date("2030-01-01T00:00:00Z");
    setClock(() => t0);
    // What a process that died inside the handler leaves behind: a reservation with no answer.
    await t.db
      .insert(idempotencyKeys)
      .values({ id: "idem_dead", apiKeyId: key.id, key: "dead", requestHash: "h", expiresAt: new Date(t0.getTime() + IDEMPOTENCY_LEASE_MS) });
    expect((await post(createWebhook, key.value, "dead", { body: HOOK })).status).toBe(422); // other hash
    setClock(() => new Date(t0.getTime() + IDEMPOTENCY_LEASE_MS));
    const taken = await post(createWebhook, key.value, "dead", { body: HOOK });
    expect([taken.status, taken.replayed]).toEqual([201, null]);
    const [row] = await t.db.select().from(idempotencyKeys).where(eq(idempotencyKeys.key, "dead"));
    expect(row!.responseStatus).toBe(201);
    expect(row!.expiresAt.getTime()).toBe(t0.getTime() + IDEMPOTENCY_LEASE_MS + 24 * 3600_000);
  });

  it("documents the header on every POST of the OpenAPI document, and only there", () => {
    const doc = buildOpenApiDocument() as unknown as {
      paths: Record<string, Record<string, { parameters?: { in: string; name: string; description?: string }[]; responses: Record<string, unknown> }>>;
    };
    let posts = 0;
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(item)) {
        const header = op.parameters?.find((p) => p.in === "header" && p.name === "Idempotency-Key");
        if (method === "post") {
          posts += 1;
          expect(header?.description, `POST ${path}`).toMatch(/24 hours/);
          expect(op.responses["409"], `POST ${path}`).toBeDefined();
        } else expect(header, `${method} ${path}`).toBeUndefined();
      }
    }
    expect(posts).toBeGreaterThan(3);
  });

  it("scopes keys to the API key: another key with the same Idempotency-Key is independent", async () => {
    const { org, key } = await setup();
    const other = await createTestKey(t.db, org);
    const a = await post(createWebhook, key.value, "shared", { body: HOOK });
    const b = await post(createWebhook, other.value, "shared", { body: HOOK });
    expect([a.status, b.status, b.replayed]).toEqual([201, 201, null]);
    expect(JSON.parse(b.text).data.id).not.toBe(JSON.parse(a.text).data.id);
    // Another body under the other key is not a mismatch either.
    expect((await post(createWebhook, other.value, "shared2", { body: { ...HOOK, description: "y" } })).status).toBe(201);
    expect(await countOf(webhookEndpoints)).toBe(3);
  });

  it("refuses a malformed Idempotency-Key with 422 at Idempotency-Key, acting on nothing", async () => {
    const { key } = await setup();
    for (const bad of ["", "a".repeat(256), "clé", "tab\there"]) {
      const res = await post(createWebhook, key.value, bad, { body: HOOK });
      expect(res.status, JSON.stringify(bad)).toBe(422);
      expect(JSON.parse(res.text)).toEqual({ error: "Validation failed", details: { "Idempotency-Key": ["Must be 1 to 255 printable ASCII characters"] } });
    }
    expect((await post(createWebhook, key.value, "a".repeat(255), { body: HOOK })).status).toBe(201);
    expect((await post(createWebhook, key.value, " ~!", { body: HOOK })).status).toBe(201);
    expect(await countOf(webhookEndpoints)).toBe(2);
  });

  it("still runs the door and the gates for a replay: rate limit counted, a role that lost the right is 403", async () => {
    const { org } = await setup();
    const roleId = await createTestRole(t.db, org.organisationId, { canManageWebhooks: true });
    const key = await createTestKey(t.db, org, { roleId });
    const first = await post(createWebhook, key.value, "gated", { body: HOOK });
    const again = await post(createWebhook, key.value, "gated", { body: HOOK });
    expect(again.replayed).toBe("true");
    expect(Number(again.headers.get("x-ratelimit-remaining"))).toBe(Number(first.headers.get("x-ratelimit-remaining")) - 1);
    await t.db.update(roles).set({ canManageWebhooks: false }).where(eq(roles.id, roleId));
    const refused = await post(createWebhook, key.value, "gated", { body: HOOK });
    expect([refused.status, refused.replayed]).toEqual([403, null]);
  });

  it("ignores the header on other methods", async () => {
    const { key } = await setup();
    const res = await callRoute(listWebhooks, { key: key.value, headers: { "Idempotency-Key": "" } });
    expect(res.status).toBe(200);
    expect(await countOf(idempotencyKeys)).toBe(0);
  });

  it.runIf(onPostgres)("on PostgreSQL, concurrent requests with one key: one acts, the others get 409 or its replay", async () => {
    const { key } = await setup();
    for (let round = 0; round < 5; round++) {
      const results = await Promise.all(Array.from({ length: 4 }, () => post(createWebhook, key.value, `race-${round}`, { body: HOOK })));
      const acted = results.filter((r) => r.status === 201 && r.replayed === null);
      expect(acted).toHaveLength(1);
      for (const r of results) {
        if (r === acted[0]) continue;
        if (r.status === 201) expect([r.replayed, r.text]).toEqual(["true", acted[0]!.text]);
        else expect([r.status, JSON.parse(r.text).error]).toEqual([409, "A request with this Idempotency-Key is still in progress"]);
      }
      const [row] = await t.db.select({ n: count() }).from(webhookEndpoints);
      expect(row!.n).toBe(round + 1);
    }
    const stored = await t.db
      .select()
      .from(idempotencyKeys)
      .where(and(eq(idempotencyKeys.apiKeyId, key.id)));
    expect(stored).toHaveLength(5);
    expect(stored.every((r) => r.responseStatus === 201)).toBe(true);
  });
});
