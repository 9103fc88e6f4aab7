/**
 * Protects the webhook endpoints API through the real route handlers: create (secret once, stored encrypted,
 * all fifteen events by default, 422s naming `url` or the offending `events` index), list and get with the
 * paged, filterable delivery log, pause/resume, delete, secret rotation with its 24-hour overlap, the
 * permission and plan gates, and tenancy — another workspace's key gets 404 on every endpoint route.
 * URLs are public IP literals or names resolved by an injected resolver: nothing is ever contacted.
 */
import { workspaceActor } from "@/server/test/actors";
import { asc, eq } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { DELETE, GET as getOne, PATCH } from "@/app/api/v1/webhooks/[endpointId]/route";
import { POST as rotate } from "@/app/api/v1/webhooks/[endpointId]/rotate-secret/route";
import { GET as list, POST as create } from "@/app/api/v1/webhooks/route";
import { auditEvents, organisations, webhookDeliveries, webhookEndpoints } from "@/server/db/schema";
import { buildOpenApiDocument } from "@/server/http/openapi";
import { setClock } from "@/server/lib/clock";
import { decryptSecret } from "@/server/lib/crypto";
import { useTestDb } from "@/server/test/db";
import { createTestKey, createTestOrg, createTestRole, createTestWorkspace } from "@/server/test/factories";
import { callJson } from "@/server/test/http";
import { claimDeliveries } from "@/server/domain/webhooks/delivery/claim-deliveries";
import { EVENT_NAMES } from "@/server/domain/webhooks/events/event-catalogue";
import { findEndpoint } from "./find-endpoint";
import { validSecrets } from "@/server/domain/webhooks/delivery/perform-delivery";
import { setResolver } from "@/server/domain/webhooks/delivery/resolver";
import { raisePackageSent } from "@/server/domain/webhooks/test-support/fixtures";

const t = useTestDb();
afterEach(() => setResolver(undefined));

type TBody = { data: Record<string, unknown> & { id: string }; error?: string; details?: Record<string, string[]> };
const URL_OK = "https://93.184.216.34/hooks";

async function setup() {
  const org = await createTestOrg(t.db);
  const key = await createTestKey(t.db, org);
  const ctx = workspaceActor(org.organisationId, org.workspaceId);
  return { org, key: key.value, ctx };
}

async function createVia(key: string, body: unknown) {
  return callJson<TBody>(create, { key, body });
}

describe("POST /api/v1/webhooks", () => {
  it("creates an endpoint with all fifteen events, returns the secret once and stores it encrypted", async () => {
    const { key } = await setup();
    const res = await createVia(key, { url: URL_OK, description: "CRM" });
    expect(res.status).toBe(201);
    const data = res.body.data;
    expect(data).toMatchObject({ url: URL_OK, enabled: true, description: "CRM", state: "ACTIVE", events: [...EVENT_NAMES] });
    expect(data.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const [row] = await t.db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, data.id));
    expect(row!.secretEncrypted).not.toContain(data.secret as string);
    expect(decryptSecret(row!.secretEncrypted)).toBe(data.secret);
    const read = await callJson<TBody>(getOne, { key, params: { endpointId: data.id } });
    expect(read.body.data).not.toHaveProperty("secret");
    expect(JSON.stringify(read.body)).not.toContain(row!.secretEncrypted);
  });

  it.each([
    ["plain http", { url: "http://93.184.216.34/" }, "url"],
    ["private address", { url: "https://10.1.2.3/" }, "url"],
    ["loopback by name", { url: "https://localhost/" }, "url"],
    ["userinfo", { url: "https://a:b@93.184.216.34/" }, "url"],
    ["not a URL", { url: "hooks" }, "url"],
    ["unknown event, by index", { url: URL_OK, events: ["PACKAGE_SENT", "PACKAGE_EXPLODED"] }, "events.1"],
    ["empty events", { url: URL_OK, events: [] }, "events"],
    ["missing url", { events: ["PACKAGE_SENT"] }, "url"],
  ])("answers 422 on %s", async (_label, body, field) => {
    const { key } = await setup();
    const res = await createVia(key, body);
    expect(res.status).toBe(422);
    expect(Object.keys(res.body.details ?? {})).toEqual([field]);
  });

  it("answers 422 on a name that resolves to a private address, or not at all", async () => {
    const { key } = await setup();
    setResolver(async (host) => {
      if (host === "internal.example") return [{ address: "192.168.0.7", family: 4 }];
      throw new Error("ENOTFOUND");
    });
    expect((await createVia(key, { url: "https://internal.example/" })).body.details).toHaveProperty("url");
    expect((await createVia(key, { url: "https://nothing.example/" })).body.details).toHaveProperty("url");
  });
});

describe("GET /api/v1/webhooks and /{endpointId}", () => {
  it("lists endpoints newest first, paged", async () => {
    const { key } = await setup();
    let tick = Date.parse("2030-01-01T00:00:00Z");
    setClock(() => new Date((tick += 1000)));
    for (let i = 0; i < 3; i++) await createVia(key, { url: `${URL_OK}/${i}` });
    const res = await callJson<{ data: { webhooks: { url: string }[]; totalCount: number; page: number; pageSize: number } }>(list, {
      key,
      query: { pageSize: 2 },
    });
    expect(res.body.data.webhooks.map((w) => w.url)).toEqual([`${URL_OK}/2`, `${URL_OK}/1`]);
    expect(res.body.data).toMatchObject({ totalCount: 3, page: 1, pageSize: 2 });
    const over = await callJson<{ details: Record<string, string[]> }>(list, { key, query: { pageSize: 101 } });
    expect(over.status).toBe(422);
    expect(over.body.details).toHaveProperty("pageSize");
  });

  it("returns 25 deliveries newest first by default, pages, filters by status and counts the filter", async () => {
    const { key, ctx } = await setup();
    const endpoint = (await createVia(key, { url: URL_OK })).body.data;
    let tick = Date.parse("2030-01-01T00:00:00Z");
    setClock(() => new Date((tick += 1000)));
    const ids: string[] = [];
    for (let i = 0; i < 30; i++) ids.push(...(await raisePackageSent(t.db, ctx, `pkg_${i}`)).deliveryIds);
    await t.db.update(webhookDeliveries).set({ status: "DELIVERED" }).where(eq(webhookDeliveries.id, ids[0]!));

    type TDetail = { data: { deliveries: { id: string; status: string }[]; deliveryCount: number; page: number; pageSize: number } };
    const first = await callJson<TDetail>(getOne, { key, params: { endpointId: endpoint.id } });
    expect(first.body.data.deliveries).toHaveLength(25);
    expect(first.body.data.deliveries[0]!.id).toBe(ids[29]);
    expect(first.body.data).toMatchObject({ deliveryCount: 30, page: 1, pageSize: 25 });
    const second = await callJson<TDetail>(getOne, { key, params: { endpointId: endpoint.id }, query: { page: 2 } });
    expect(second.body.data.deliveries.map((d) => d.id)).toEqual(ids.slice(0, 5).reverse());
    const delivered = await callJson<TDetail>(getOne, { key, params: { endpointId: endpoint.id }, query: { status: "DELIVERED" } });
    expect(delivered.body.data.deliveries.map((d) => d.id)).toEqual([ids[0]]);
    expect(delivered.body.data.deliveryCount).toBe(1);
    const bad = await callJson<{ details: Record<string, string[]> }>(getOne, { key, params: { endpointId: endpoint.id }, query: { status: "LOST" } });
    expect(bad.status).toBe(422);
    expect(bad.body.details).toHaveProperty("status");
  });
});

describe("PATCH, DELETE and rotate-secret", () => {
  it("pauses (dropping queued deliveries) and resumes (clearing the counter)", async () => {
    const { key, ctx } = await setup();
    const endpoint = (await createVia(key, { url: URL_OK })).body.data;
    const [queued] = (await raisePackageSent(t.db, ctx)).deliveryIds;
    await t.db.update(webhookEndpoints).set({ consecutiveFailures: 4 }).where(eq(webhookEndpoints.id, endpoint.id));

    const paused = await callJson<TBody>(PATCH, { key, params: { endpointId: endpoint.id }, body: { enabled: false } });
    expect(paused.body.data).toMatchObject({ enabled: false, state: "PAUSED" });
    const [row] = await t.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, queued!));
    expect(row).toMatchObject({ status: "EXHAUSTED", lastError: "endpoint paused" });

    const resumed = await callJson<TBody>(PATCH, { key, params: { endpointId: endpoint.id }, body: { enabled: true } });
    expect(resumed.body.data).toMatchObject({ enabled: true, state: "ACTIVE", consecutiveFailures: 0 });
    const changed = await callJson<TBody>(PATCH, {
      key,
      params: { endpointId: endpoint.id },
      body: { events: ["SESSION_SENT"], description: null, url: `${URL_OK}/v2` },
    });
    expect(changed.body.data).toMatchObject({ events: ["SESSION_SENT"], description: null, url: `${URL_OK}/v2` });
    const badUrl = await callJson<TBody>(PATCH, { key, params: { endpointId: endpoint.id }, body: { url: "https://127.0.0.1/" } });
    expect(badUrl.status).toBe(422);
    expect(badUrl.body.details).toHaveProperty("url");
  });

  it("deletes with 200 { id, deleted: true }; the endpoint is then 404", async () => {
    const { key } = await setup();
    const endpoint = (await createVia(key, { url: URL_OK })).body.data;
    const res = await callJson<TBody>(DELETE, { key, params: { endpointId: endpoint.id } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: { id: endpoint.id, deleted: true } });
    expect((await callJson(getOne, { key, params: { endpointId: endpoint.id } })).status).toBe(404);
  });

  it("rotates the secret; both sign for 24 hours, then only the new one", async () => {
    const { key, ctx } = await setup();
    const start = new Date("2030-03-01T00:00:00Z");
    setClock(() => start);
    const endpoint = (await createVia(key, { url: URL_OK })).body.data;
    const rotated = await callJson<TBody>(rotate, { key, params: { endpointId: endpoint.id } });
    expect(rotated.status).toBe(200);
    expect(rotated.body.data.secret).not.toBe(endpoint.secret);
    expect(rotated.body.data.previousSecretExpiresAt).toBe("2030-03-02T00:00:00.000Z");

    await raisePackageSent(t.db, ctx);
    const [claim] = await claimDeliveries(t.db, { limit: 1 });
    expect(validSecrets(claim!, start)).toEqual([rotated.body.data.secret, endpoint.secret]);
    expect(validSecrets(claim!, new Date("2030-03-02T00:00:00.001Z"))).toEqual([rotated.body.data.secret]);
  });
});

describe("audit", () => {
  // Every endpoint change is recorded in its own transaction, attributed to the key and its issuer, without
  // the secret (an audit log is read by more people than the secret's owner).
  it("records create, update, rotate and delete with the key and its issuer, never a secret", async () => {
    const org = await createTestOrg(t.db);
    const key = await createTestKey(t.db, org);
    const created = await createVia(key.value, { url: URL_OK, events: ["PACKAGE_SENT"] });
    const id = created.body.data.id;
    await callJson<TBody>(PATCH, { key: key.value, params: { endpointId: id }, body: { description: "CRM", enabled: false } });
    const rotated = await callJson<TBody>(rotate, { key: key.value, params: { endpointId: id } });
    await callJson<TBody>(DELETE, { key: key.value, params: { endpointId: id } });
    const rows = await t.db.select().from(auditEvents).where(eq(auditEvents.subjectId, id)).orderBy(asc(auditEvents.createdAt), asc(auditEvents.id));
    expect(rows.map((r) => r.action).sort()).toEqual(
      ["webhook.endpoint_created", "webhook.endpoint_deleted", "webhook.endpoint_updated", "webhook.secret_rotated"].sort(),
    );
    for (const r of rows)
      expect(r).toMatchObject({ organisationId: org.organisationId, workspaceId: org.workspaceId, actorUserId: org.userId, apiKeyId: key.id });
    expect(rows.find((r) => r.action === "webhook.endpoint_updated")!.data).toEqual({ description: "CRM", enabled: false });
    const everything = JSON.stringify(rows);
    expect(everything).not.toContain(created.body.data.secret as string);
    expect(everything).not.toContain(rotated.body.data.secret as string);
    expect(everything).not.toContain("whsec_");
  });
});

describe("gates and tenancy", () => {
  it("answers 404 to another workspace's key on every endpoint route, and lists nothing of it", async () => {
    const { org, key } = await setup();
    const endpoint = (await createVia(key, { url: URL_OK })).body.data;
    const north = await createTestWorkspace(t.db, org.organisationId, "north");
    const northKey = (await createTestKey(t.db, org, { workspaceId: north })).value;
    const otherOrgKey = (await createTestKey(t.db, await createTestOrg(t.db, "Other"))).value;
    for (const k of [northKey, otherOrgKey]) {
      const params = { endpointId: endpoint.id };
      expect((await callJson(getOne, { key: k, params })).status).toBe(404);
      expect((await callJson(PATCH, { key: k, params, body: { enabled: false } })).status).toBe(404);
      expect((await callJson(rotate, { key: k, params })).status).toBe(404);
      expect((await callJson(DELETE, { key: k, params })).status).toBe(404);
      const listed = await callJson<{ data: { webhooks: unknown[]; totalCount: number } }>(list, { key: k });
      expect(listed.body.data).toMatchObject({ webhooks: [], totalCount: 0 });
    }
    const [row] = await t.db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, endpoint.id));
    expect(row).toMatchObject({ enabled: true });
  });

  // Regression: PATCH validated `url` (resolving it) before checking the endpoint belonged to the caller, so
  // another workspace's key got a 422 on `url` — learning the endpoint exists — and made us resolve its name.
  it("answers 404 to another workspace's PATCH with a bad url, without resolving it", async () => {
    const { key } = await setup();
    const endpoint = (await createVia(key, { url: URL_OK })).body.data;
    const otherOrgKey = (await createTestKey(t.db, await createTestOrg(t.db, "Other"))).value;
    const lookups: string[] = [];
    setResolver(async (host) => {
      lookups.push(host);
      return [{ address: "10.0.0.9", family: 4 }];
    });
    for (const url of ["https://internal.example/hook", "http://93.184.216.34/", "not a url"]) {
      const res = await callJson<TBody>(PATCH, { key: otherOrgKey, params: { endpointId: endpoint.id }, body: { url } });
      expect(res.status).toBe(404);
    }
    expect(lookups).toEqual([]);
    // The owner still gets the 422 on url.
    const own = await callJson<TBody>(PATCH, { key, params: { endpointId: endpoint.id }, body: { url: "https://internal.example/hook" } });
    expect(own.status).toBe(422);
    expect(Object.keys(own.body.details ?? {})).toEqual(["url"]);
  });

  // The app's endpoint page passes its URL segment straight to findEndpoint: %00 must be a 404, not a 500.
  it("does not find an id holding a NUL character (PostgreSQL would refuse the query)", async () => {
    const { ctx } = await setup();
    await expect(findEndpoint(t.db, ctx, "whep_\u0000")).rejects.toMatchObject({ kind: "NOT_FOUND" });
  });

  it("needs canManageWebhooks (403) and the webhooks plan feature (402)", async () => {
    const { org } = await setup();
    const roleId = await createTestRole(t.db, org.organisationId, { canManageWebhooks: false });
    const weak = (await createTestKey(t.db, org, { roleId })).value;
    const denied = await callJson<TBody>(list, { key: weak });
    expect(denied.status).toBe(403);
    expect(denied.body.error).toBe("Missing permission: canManageWebhooks");

    const key = (await createTestKey(t.db, org)).value;
    await t.db.update(organisations).set({ featureWebhooks: false }).where(eq(organisations.id, org.organisationId));
    expect((await createVia(key, { url: URL_OK })).status).toBe(402);
  });
});

describe("OpenAPI", () => {
  it("publishes WebhookPayload_<EVENT> for all fifteen events", () => {
    const doc = buildOpenApiDocument() as {
      components: { schemas: Record<string, { properties: Record<string, { properties?: Record<string, { nullable?: boolean }> }> }> };
    };
    for (const event of EVENT_NAMES) expect(doc.components.schemas).toHaveProperty(`WebhookPayload_${event}`);
    const sessionSent = doc.components.schemas.WebhookPayload_SESSION_SENT!;
    expect(Object.keys(sessionSent.properties)).toEqual(["event", "timestamp", "sequence", "data", "test"]);
    expect(sessionSent.properties.data!.properties!.recipientEmail!.nullable).toBe(true);
    expect(sessionSent.properties.data!.properties).toHaveProperty("metadata");
  });
});
