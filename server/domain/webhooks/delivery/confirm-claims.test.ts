/**
 * Protects pause against the claim that came just before it: a delivery claimed by a worker, whose endpoint
 * is then paused before the request leaves, must not be POSTed. It ends EXHAUSTED "endpoint paused" without a
 * request, without counting a failure against the endpoint, without an attempt in the log, and with the
 * attempt that was never made uncounted. (It was once sent anyway: a pause skips deliveries a worker holds.)
 * Also: a claim taken over by another worker is not sent either, and the worker's batching gate gives each
 * claim of a batch its own verdict. A young claim (two deadlines or more left on its lease) is checked by its
 * endpoint alone — no other worker can have taken it over yet — and an older one in full, to the millisecond.
 * The clock is injected; a local receiver (127.0.0.1, the development switch on) counts requests.
 */
import { eq } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { webhookAttempts, webhookQueue } from "@/server/db/schema";
import { useTestDb } from "@/server/test/db";
import { claimDeliveries } from "./claim-deliveries";
import { performDelivery } from "./perform-delivery";
import { createSendGate } from "./send-gate";
import { answer } from "@/server/domain/webhooks/test-support/receiver";
import { useLocalReceiver } from "@/server/domain/webhooks/test-support/use-local-receiver";
import { deliveryRow, endpointRow, raisePackageSent, setupEndpoint } from "@/server/domain/webhooks/test-support/fixtures";
import { updateEndpoint } from "@/server/domain/webhooks/endpoints/update-endpoint";
import { deleteEndpoint } from "@/server/domain/webhooks/endpoints/delete-endpoint";
import { WEBHOOK_LIMITS } from "@/server/domain/webhooks/limits";
import { setClock } from "@/server/lib/clock";
import { confirmClaims, YOUNG_LEASE_LEFT_MS } from "./confirm-claims";

const t = useTestDb();
const rx = useLocalReceiver(answer(500));
afterEach(() => setClock(undefined));
/** The clock at `ms` after `start`. */
const at = (start: number, ms: number) => setClock(() => new Date(start + ms));

describe("a claim made just before a pause", () => {
  it("is dropped unsent: EXHAUSTED 'endpoint paused', no failure counted, no attempt logged", async () => {
    const { actor, endpoint } = await setupEndpoint(t.db, rx.url);
    const [id] = (await raisePackageSent(t.db, actor)).deliveryIds;
    const [claim] = await claimDeliveries(t.db, { limit: 10 });
    expect(claim).toMatchObject({ id, attempt: 1 });

    await updateEndpoint(t.db, actor, { endpointId: endpoint.id, enabled: false });
    const sent = rx.received.length;
    expect(await performDelivery(t.db, claim!, { random: () => 0 })).toMatchObject({ kind: "recorded", status: "EXHAUSTED" });

    expect(rx.received.length).toBe(sent);
    expect(await deliveryRow(t.db, id!)).toMatchObject({ status: "EXHAUSTED", lastError: "endpoint paused", attempts: 0, claimToken: null, lockedUntil: null });
    expect(await t.db.select().from(webhookAttempts)).toEqual([]);
    expect(await endpointRow(t.db, endpoint.id)).toMatchObject({ consecutiveFailures: 0, enabled: false });
  });
});

describe("the send gate", () => {
  it("gives each claim of a batch its verdict: send, paused (dropped) or stale (not sent)", async () => {
    const { actor: live } = await setupEndpoint(t.db, rx.url, { name: "Live" });
    const { actor: paused, endpoint: pausedEndpoint } = await setupEndpoint(t.db, rx.url, { name: "Paused" });
    await raisePackageSent(t.db, live, "p1");
    await raisePackageSent(t.db, live, "p2");
    await raisePackageSent(t.db, paused, "p3");
    const claims = await claimDeliveries(t.db, { limit: 10 });
    expect(claims).toHaveLength(3);
    const [keep, takenOver] = claims.filter((c) => c.endpointId !== pausedEndpoint.id);
    const onPaused = claims.find((c) => c.endpointId === pausedEndpoint.id)!;
    await updateEndpoint(t.db, paused, { endpointId: pausedEndpoint.id, enabled: false });
    // A lease is taken over only once it has expired: the clock moves past it, and another worker's token is put
    // in its place.
    at(Date.now(), WEBHOOK_LIMITS.leaseMs + 1000);
    await t.db.update(webhookQueue).set({ claimToken: "another-worker" }).where(eq(webhookQueue.deliveryId, takenOver!.id));

    const gate = createSendGate(t.db);
    const verdicts = await Promise.all([gate.confirm(keep!), gate.confirm(takenOver!), gate.confirm(onPaused)]);
    expect(verdicts).toEqual(["send", "stale", "paused"]);
    expect(await deliveryRow(t.db, keep!.id)).toMatchObject({ status: "PENDING", claimToken: keep!.token, attempts: 1 });
    expect(await deliveryRow(t.db, takenOver!.id)).toMatchObject({ status: "PENDING", claimToken: "another-worker" });
    expect(await deliveryRow(t.db, onPaused.id)).toMatchObject({ status: "EXHAUSTED", lastError: "endpoint paused", attempts: 0 });

    // The stale claim is not sent by performDelivery either.
    const sent = rx.received.length;
    expect(await performDelivery(t.db, takenOver!, { confirm: gate.confirm })).toEqual({ kind: "stale" });
    expect(rx.received.length).toBe(sent);
  });
});

describe("a young claim", () => {
  it("is confirmed by its endpoint alone while two deadlines are left on its lease, and checked in full after", async () => {
    const start = Date.now();
    at(start, 0);
    const { actor } = await setupEndpoint(t.db, rx.url);
    await raisePackageSent(t.db, actor);
    const [claim] = await claimDeliveries(t.db, { limit: 10 });
    expect(claim!.leaseEndsAt.getTime()).toBe(start + WEBHOOK_LIMITS.leaseMs);
    // What no worker can do during the lease (it takes over expired leases only): its token replaced. A young
    // claim is not asked about it; the same claim a millisecond older is, and is no longer ours.
    await t.db.update(webhookQueue).set({ claimToken: "another-worker" }).where(eq(webhookQueue.deliveryId, claim!.id));
    at(start, WEBHOOK_LIMITS.leaseMs - YOUNG_LEASE_LEFT_MS);
    expect(await confirmClaims(t.db, [claim!])).toEqual(["send"]);
    at(start, WEBHOOK_LIMITS.leaseMs - YOUNG_LEASE_LEFT_MS + 1);
    expect(await confirmClaims(t.db, [claim!])).toEqual(["stale"]);
  });

  it("is checked in full when an endpoint is gone or paused: stale, or dropped as paused, beside one sent", async () => {
    at(Date.now(), 0);
    const { actor: gone, endpoint: goneEndpoint } = await setupEndpoint(t.db, rx.url, { name: "Gone" });
    const { actor: paused, endpoint: pausedEndpoint } = await setupEndpoint(t.db, rx.url, { name: "Paused" });
    const { actor: live } = await setupEndpoint(t.db, rx.url, { name: "Live" });
    await raisePackageSent(t.db, gone, "p1");
    await raisePackageSent(t.db, paused, "p2");
    await raisePackageSent(t.db, live, "p3");
    const claims = await claimDeliveries(t.db, { limit: 10 });
    const onGone = claims.find((c) => c.endpointId === goneEndpoint.id)!;
    const onPaused = claims.find((c) => c.endpointId === pausedEndpoint.id)!;
    const onLive = claims.find((c) => c !== onGone && c !== onPaused)!;
    await deleteEndpoint(t.db, gone, { endpointId: goneEndpoint.id });
    await updateEndpoint(t.db, paused, { endpointId: pausedEndpoint.id, enabled: false });
    expect(await confirmClaims(t.db, [onGone, onPaused, onLive])).toEqual(["stale", "paused", "send"]);
    expect(await deliveryRow(t.db, onPaused.id)).toMatchObject({ status: "EXHAUSTED", lastError: "endpoint paused", attempts: 0, claimToken: null });
    expect(await deliveryRow(t.db, onLive.id)).toMatchObject({ status: "PENDING", claimToken: onLive.token });
  });
});
