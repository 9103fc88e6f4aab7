/**
 * The app's webhook actions against a local receiver (127.0.0.1, allowed only because this file turns
 * WEBHOOK_ALLOW_PRIVATE_TARGETS on), delivered with the real worker steps:
 * - Send test event reaches ONLY the chosen endpoint, with `test: true` and no sequence, signed and logged;
 * - Replay keeps the delivery id, gives a fresh attempt budget, records who replayed it and audits it;
 * - the signature debugger says "match" only for a digest that was sent, and names the differing input only
 *   when a single-input variant reproduces the digest (otherwise it says it cannot tell);
 * - tenancy: a delivery of another workspace's endpoint is 404 even when its id is known.
 * Time is injected with setClock; nothing sleeps.
 */
import { createHmac, randomBytes } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { auditEvents, webhookDeliveries, webhookEvents } from "@/server/db/schema";
import { AppError } from "@/server/lib/errors";
import { setClock } from "@/server/lib/clock";
import { ownerActor } from "@/server/test/actors";
import { useTestDb } from "@/server/test/db";
import { createTestOrg, createTestWorkspace, type TTestOrg } from "@/server/test/factories";
import { createEndpoint } from "@/server/domain/webhooks/endpoints/create-endpoint";
import { deliverDueWebhooks } from "@/server/domain/webhooks/delivery/deliver-due-webhooks";
import { rotateEndpointSecret } from "@/server/domain/webhooks/endpoints/rotate-endpoint-secret";
import { updateEndpoint } from "@/server/domain/webhooks/endpoints/update-endpoint";
import { answer } from "@/server/domain/webhooks/test-support/receiver";
import { useLocalReceiver } from "@/server/domain/webhooks/test-support/use-local-receiver";
import { raisePackageSent } from "@/server/domain/webhooks/test-support/fixtures";
import { checkDeliverySignature } from "./check-delivery-signature";
import { getDeliveryDetail } from "./get-delivery-detail";
import { getDeliveryLog } from "./get-delivery-log";
import { replayDeliveries } from "./replay-deliveries";
import type { TActor } from "@/server/domain/access/actor";
import { sendTestEvent } from "@/server/domain/webhooks/events/send-test-event";

const t = useTestDb();
const rx = useLocalReceiver();
let clock = new Date("2030-03-01T10:00:00.000Z");
const deps = { random: () => 0 };

afterEach(() => {
  rx.received.length = 0;
  rx.setHandler(answer(200));
  clock = new Date("2030-03-01T10:00:00.000Z");
});

async function setup(): Promise<{ org: TTestOrg; scope: TActor }> {
  const org = await createTestOrg(t.db);
  const scope = ownerActor(org);
  return { org, scope };
}

async function rejection(p: Promise<unknown>): Promise<AppError> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(AppError);
  return err as AppError;
}

describe("sendTestEvent", () => {
  it("sends a realistic sample with test: true to the chosen endpoint only, signed and logged", async () => {
    const { scope } = await setup();
    const chosen = await createEndpoint(t.db, scope, { url: rx.url, events: ["PACKAGE_SENT"] });
    const other = await createEndpoint(t.db, scope, { url: `${rx.url}?other`, events: ["PACKAGE_COMPLETED", "SESSION_DECLINED"] });

    // An event the chosen endpoint does not even subscribe to: a test goes to the endpoint asked for.
    const sent = await sendTestEvent(t.db, scope, { endpointId: chosen.id, event: "SESSION_DECLINED" });
    const all = await t.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.eventId, sent.eventId));
    expect(all.map((d) => d.endpointId)).toEqual([chosen.id]);

    await deliverDueWebhooks(t.db, deps);
    expect(rx.received).toHaveLength(1);
    const req = rx.received[0]!;
    const h = req.headers as Record<string, string>;
    expect(req.url).toBe("/hook");
    expect(h["x-foliosign-delivery-id"]).toBe(sent.deliveryId);
    expect(h["x-foliosign-signature"]).toBe(`v1=${createHmac("sha256", chosen.secret).update(`${h["x-foliosign-timestamp"]}.${req.body}`).digest("hex")}`);
    const envelope = JSON.parse(req.body) as Record<string, unknown>;
    expect(envelope).toMatchObject({ event: "SESSION_DECLINED", test: true, data: { recipientEmail: "jordan.lee@example.com", reason: expect.any(String) } });
    expect(envelope).not.toHaveProperty("sequence");

    const log = await getDeliveryLog(t.db, scope, { endpointId: chosen.id, page: 1, pageSize: 25 });
    expect(log.deliveries).toMatchObject([{ id: sent.deliveryId, status: "DELIVERED", test: true, responseStatus: 200, attempts: 1 }]);
    expect((await getDeliveryLog(t.db, scope, { endpointId: other.id, page: 1, pageSize: 25 })).deliveryCount).toBe(0);
  });

  it("refuses a paused endpoint (409) and another workspace's endpoint (404)", async () => {
    const { org, scope } = await setup();
    const endpoint = await createEndpoint(t.db, scope, { url: rx.url });
    await updateEndpoint(t.db, scope, { endpointId: endpoint.id, enabled: false });
    expect((await rejection(sendTestEvent(t.db, scope, { endpointId: endpoint.id, event: "PACKAGE_SENT" }))).status).toBe(409);

    const siblingId = await createTestWorkspace(t.db, org.organisationId, "sibling");
    const sibling = ownerActor(org, { id: siblingId });
    expect(sibling.workspace.id).toBe(siblingId);
    expect((await rejection(sendTestEvent(t.db, sibling, { endpointId: endpoint.id, event: "PACKAGE_SENT" }))).status).toBe(404);
    expect(await t.db.select().from(webhookEvents)).toHaveLength(0);
  });
});

describe("replayDeliveries", () => {
  it("re-queues an EXHAUSTED delivery with the same id and a fresh budget, records who, audits, and redelivers", async () => {
    setClock(() => clock);
    const { org, scope } = await setup();
    const endpoint = await createEndpoint(t.db, scope, { url: rx.url });
    const { deliveryIds } = await raisePackageSent(t.db, scope);
    const id = deliveryIds[0]!;
    // Nine failed attempts, following the retry table with the injected clock.
    rx.setHandler(answer(500, "down"));
    for (let i = 0; i < 9; i++) {
      await deliverDueWebhooks(t.db, deps);
      clock = new Date(clock.getTime() + 3 * 3_600_000);
    }
    expect(rx.received).toHaveLength(9);
    const before = (await getDeliveryLog(t.db, scope, { endpointId: endpoint.id, page: 1, pageSize: 25 })).deliveries[0]!;
    expect(before).toMatchObject({ id, status: "EXHAUSTED", attempts: 9, replayedAt: null });
    expect((await rejection(replayDeliveries(t.db, scope, { endpointId: endpoint.id, deliveryId: "whd_nope" }))).status).toBe(404);

    rx.setHandler(answer(200, "thanks"));
    expect(await replayDeliveries(t.db, scope, { endpointId: endpoint.id, deliveryId: id })).toEqual({ replayed: 1, deliveryIds: [id] });
    const queued = (await getDeliveryLog(t.db, scope, { endpointId: endpoint.id, page: 1, pageSize: 25 })).deliveries[0]!;
    expect(queued).toMatchObject({ id, status: "PENDING", attempts: 0, replayedAt: clock.toISOString(), replayedBy: "Acme Owner" });
    const [audit] = await t.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.subjectId, endpoint.id), eq(auditEvents.action, "webhook.deliveries_replayed")));
    expect(audit).toMatchObject({ actorUserId: org.userId, workspaceId: org.workspaceId, data: { deliveryIds: [id] } });

    await deliverDueWebhooks(t.db, deps);
    expect(rx.received).toHaveLength(10);
    expect(rx.received[9]!.headers["x-foliosign-delivery-id"]).toBe(id);
    expect(rx.received[9]!.body).toBe(rx.received[0]!.body);
    const detail = await getDeliveryDetail(t.db, scope, { endpointId: endpoint.id, deliveryId: id });
    expect(detail).toMatchObject({ status: "DELIVERED", attempts: 1, replayedBy: expect.stringContaining("Acme Owner") });
    expect(detail.attemptLog).toHaveLength(10);
    expect(detail.attemptLog.filter((a) => a.afterReplay).map((a) => [a.attemptNumber, a.responseStatus, a.responseBody])).toEqual([[1, 200, "thanks"]]);

    // Only EXHAUSTED deliveries can be replayed.
    expect((await rejection(replayDeliveries(t.db, scope, { endpointId: endpoint.id, deliveryId: id }))).status).toBe(409);
  });

  it("replays every EXHAUSTED delivery of the endpoint in a range, and refuses while paused", async () => {
    setClock(() => clock);
    const { scope } = await setup();
    const endpoint = await createEndpoint(t.db, scope, { url: rx.url });
    const early = (await raisePackageSent(t.db, scope, "pkg_a")).deliveryIds[0]!;
    clock = new Date(clock.getTime() + 3_600_000);
    const inRange = [(await raisePackageSent(t.db, scope, "pkg_b")).deliveryIds[0]!, (await raisePackageSent(t.db, scope, "pkg_c")).deliveryIds[0]!];
    // Pausing drops the queued deliveries: all three end EXHAUSTED "endpoint paused".
    await updateEndpoint(t.db, scope, { endpointId: endpoint.id, enabled: false });
    const range = { endpointId: endpoint.id, from: new Date(clock.getTime() - 60_000), to: new Date(clock.getTime() + 60_000) };
    expect((await rejection(replayDeliveries(t.db, scope, range))).status).toBe(409);

    await updateEndpoint(t.db, scope, { endpointId: endpoint.id, enabled: true });
    const result = await replayDeliveries(t.db, scope, range);
    expect([...result.deliveryIds].sort()).toEqual([...inRange].sort());
    const rows = await t.db.select({ id: webhookDeliveries.id, status: webhookDeliveries.status }).from(webhookDeliveries);
    expect(Object.fromEntries(rows.map((r) => [r.id, r.status]))).toEqual({ [early]: "EXHAUSTED", [inRange[0]!]: "PENDING", [inRange[1]!]: "PENDING" });
  });
});

describe("checkDeliverySignature", () => {
  const hex = (key: string | Buffer, text: string) => createHmac("sha256", key).update(text).digest("hex");

  it("says match for the digest sent, and names secret, timestamp or body only when a variant reproduces it", async () => {
    const { scope } = await setup();
    const endpoint = await createEndpoint(t.db, scope, { url: rx.url });
    const { deliveryId } = await sendTestEvent(t.db, scope, { endpointId: endpoint.id, event: "PACKAGE_SENT" });
    await deliverDueWebhooks(t.db, deps);
    const { body, headers } = rx.received[0]!;
    const ts = headers["x-foliosign-timestamp"] as string;
    const check = (digest: string) => checkDeliverySignature(t.db, scope, { endpointId: endpoint.id, deliveryId, digest });

    const right = await check(`v1=${hex(endpoint.secret, `${ts}.${body}`)}`);
    expect(right).toMatchObject({ match: true, differs: null, signedString: `${ts}.${body}` });
    expect((await check(Buffer.from(hex(endpoint.secret, `${ts}.${body}`), "hex").toString("base64"))).match).toBe(true);

    expect(await check(hex(endpoint.secret, body))).toMatchObject({ match: false, differs: "timestamp", identified: true });
    expect(await check(hex(endpoint.secret, `${Number(ts) + 7}.${body}`))).toMatchObject({ match: false, differs: null, identified: false });
    const envelopeTs = (JSON.parse(body) as { timestamp: string }).timestamp;
    expect(await check(hex(endpoint.secret, `${envelopeTs}.${body}`))).toMatchObject({ match: false, differs: "timestamp", identified: true });
    expect(await check(hex(endpoint.secret, `${ts}.${JSON.stringify(JSON.parse(body), null, 2)}`))).toMatchObject({ differs: "body", identified: true });
    const decodedKey = Buffer.from(endpoint.secret.slice("whsec_".length), "base64");
    expect(await check(hex(decodedKey, `${ts}.${body}`))).toMatchObject({ differs: "secret", identified: true });

    const unknown = await check(hex(`whsec_${randomBytes(32).toString("base64")}`, `${ts}.${body}`));
    expect(unknown).toMatchObject({ match: false, differs: null, identified: false });
    expect(unknown.message).toMatch(/cannot tell/);

    // After a rotation, a receiver already on the NEW secret cannot verify an attempt signed before it.
    const rotated = await rotateEndpointSecret(t.db, scope, { endpointId: endpoint.id });
    const stale = await check(hex(rotated.secret, `${ts}.${body}`));
    expect(stale).toMatchObject({ match: false, differs: "secret", identified: true });
    expect(stale.message).toMatch(/current secret/);
    expect((await check(hex(endpoint.secret, `${ts}.${body}`))).message).toMatch(/previous secret/);

    expect((await rejection(check("not-a-digest"))).status).toBe(422);
  });

  it("is 404 for another workspace's delivery, even with its id", async () => {
    const { org, scope } = await setup();
    const endpoint = await createEndpoint(t.db, scope, { url: rx.url });
    const { deliveryId } = await sendTestEvent(t.db, scope, { endpointId: endpoint.id, event: "PACKAGE_SENT" });
    const siblingId = await createTestWorkspace(t.db, org.organisationId, "sibling");
    const sibling = ownerActor(org, { id: siblingId });
    const digest = "0".repeat(64);
    expect((await rejection(checkDeliverySignature(t.db, sibling, { endpointId: endpoint.id, deliveryId, digest }))).status).toBe(404);
    expect((await rejection(getDeliveryDetail(t.db, sibling, { endpointId: endpoint.id, deliveryId }))).status).toBe(404);
    expect((await rejection(replayDeliveries(t.db, sibling, { endpointId: endpoint.id, deliveryId }))).status).toBe(404);
  });
});
