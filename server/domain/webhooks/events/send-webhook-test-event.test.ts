/**
 * Protects `POST /api/v1/webhooks/{endpointId}/test` (beyond the spec), the one call that lets an integrator
 * with only an API key make something happen: a sample of any event (subscribed or not) goes through the real
 * pipeline to a local receiver, signed, with `test: true`; the answer names the delivery and carries the exact
 * envelope; the delivery log marks it as a test. Also: 404 for another workspace's key, 403 without
 * canManageWebhooks, 409 on a paused endpoint, and the refusal of a local URL naming the development switch.
 */
import { describe, expect, it } from "vitest";
import { Webhook } from "standardwebhooks";
import { GET as getOne, PATCH } from "@/app/api/v1/webhooks/[endpointId]/route";
import { POST as sendTest } from "@/app/api/v1/webhooks/[endpointId]/test/route";
import { POST as create } from "@/app/api/v1/webhooks/route";
import { deliverDueWebhooks } from "@/server/domain/webhooks/delivery/deliver-due-webhooks";
import { useLocalReceiver } from "@/server/domain/webhooks/test-support/use-local-receiver";
import { resetEnvCache } from "@/server/env";
import { expectOtherWorkspaceGets404 } from "@/server/test/cross-workspace";
import { useTestDb } from "@/server/test/db";
import { createTestKey, createTestOrg, createTestRole } from "@/server/test/factories";
import { callJson } from "@/server/test/http";

const t = useTestDb();
const rx = useLocalReceiver();

type TEnvelope = { event: string; test?: boolean; sequence?: number; data: Record<string, unknown> };
type TBody<D> = { data: D; error?: string; details?: Record<string, string[]> };

async function setup(events = ["PACKAGE_COMPLETED"]) {
  const org = await createTestOrg(t.db);
  const key = (await createTestKey(t.db, org)).value;
  const created = await callJson<TBody<{ id: string; secret: string }>>(create, { key, body: { url: rx.url, events } });
  expect(created.status).toBe(201);
  return { org, key, endpoint: created.body.data };
}

describe("POST /api/v1/webhooks/{endpointId}/test", () => {
  it("sends a signed sample of an event the endpoint is not subscribed to, answers its delivery id, and logs it as a test", async () => {
    const { key, endpoint } = await setup(["PACKAGE_COMPLETED"]);
    const res = await callJson<TBody<{ deliveryId: string; eventId: string; event: string; payload: TEnvelope }>>(sendTest, {
      key,
      params: { endpointId: endpoint.id },
      body: { event: "SESSION_DECLINED" },
    });
    expect(res.status).toBe(201);
    const { deliveryId, payload } = res.body.data;
    expect(deliveryId).toMatch(/^whd_/);
    expect(payload).toMatchObject({ event: "SESSION_DECLINED", test: true });
    expect(payload).not.toHaveProperty("sequence");

    await deliverDueWebhooks(t.db);
    expect(rx.received).toHaveLength(1);
    const got = rx.received[0]!;
    const headers = got.headers as Record<string, string>;
    expect(headers["webhook-id"]).toBe(deliveryId);
    // Signed with the endpoint's secret (verified by an independent Standard Webhooks implementation).
    expect(new Webhook(endpoint.secret).verify(got.body, headers)).toMatchObject({ event: "SESSION_DECLINED", test: true });
    expect(JSON.parse(got.body)).toEqual(payload);

    const log = await callJson<TBody<{ deliveries: { id: string; status: string; test: boolean }[] }>>(getOne, {
      key,
      params: { endpointId: endpoint.id },
    });
    expect(log.body.data.deliveries).toEqual([expect.objectContaining({ id: deliveryId, status: "DELIVERED", test: true })]);
  });

  it("answers 404 to another workspace's key, 403 without canManageWebhooks, 409 when paused, 422 on an unknown event", async () => {
    const { org, key, endpoint } = await setup();
    const params = { endpointId: endpoint.id };
    await expectOtherWorkspaceGets404(t.db, sendTest, { org, params, body: { event: "PACKAGE_SENT" }, ownKey: key });

    const roleId = await createTestRole(t.db, org.organisationId, { canManageWebhooks: false });
    const weak = (await createTestKey(t.db, org, { roleId })).value;
    const denied = await callJson<TBody<unknown>>(sendTest, { key: weak, params, body: { event: "PACKAGE_SENT" } });
    expect(denied.status).toBe(403);
    expect(denied.body.error).toBe("Missing permission: canManageWebhooks");

    const unknown = await callJson<TBody<unknown>>(sendTest, { key, params, body: { event: "PACKAGE_EXPLODED" } });
    expect(unknown.status).toBe(422);
    expect(Object.keys(unknown.body.details ?? {})).toEqual(["event"]);

    expect((await callJson(PATCH, { key, params, body: { enabled: false } })).status).toBe(200);
    expect((await callJson(sendTest, { key, params, body: { event: "PACKAGE_SENT" } })).status).toBe(409);
  });

  it("refuses a local receiver URL with a message that names the development switch", async () => {
    const org = await createTestOrg(t.db);
    const key = (await createTestKey(t.db, org)).value;
    process.env.WEBHOOK_ALLOW_PRIVATE_TARGETS = "false";
    resetEnvCache();
    try {
      for (const url of [rx.url, "https://127.0.0.1/hooks"]) {
        const res = await callJson<TBody<unknown>>(create, { key, body: { url } });
        expect(res.status).toBe(422);
        expect(res.body.details?.url?.[0]).toContain("WEBHOOK_ALLOW_PRIVATE_TARGETS=true");
      }
      // A malformed URL is not a development matter: no hint.
      const bad = await callJson<TBody<unknown>>(create, { key, body: { url: "hooks" } });
      expect(bad.body.details?.url?.[0]).not.toContain("WEBHOOK_ALLOW_PRIVATE_TARGETS");
    } finally {
      process.env.WEBHOOK_ALLOW_PRIVATE_TARGETS = "true";
      resetEnvCache();
    }
  });
});
