/**
 * Protects the worker job end to end on the real worker loop: an event committed through withEvents reaches a
 * local receiver through the wake-up alone (the poll is set to a minute); a queue longer than the job's
 * concurrency drains by the job's own re-claiming as attempts finish (no poll needed); and a graceful stop hands
 * an attempt in flight back — lease cleared, attempt uncounted, due at once — instead of leaving it leased.
 */
import { describe, expect, it } from "vitest";
import { createWebhookDeliveryJob } from "@/server/jobs/webhook-delivery-job";
import { startWorker } from "@/server/jobs/worker";
import { useTestDb } from "@/server/test/db";
import { recordEvent } from "@/server/domain/webhooks/events/record-event";
import { answer } from "@/server/domain/webhooks/test-support/receiver";
import { useLocalReceiver } from "@/server/domain/webhooks/test-support/use-local-receiver";
import { deliveryRow, packageSent, setupEndpoint } from "@/server/domain/webhooks/test-support/fixtures";
import { withEvents } from "@/server/domain/transaction";

const t = useTestDb();
const rx = useLocalReceiver();

describe("the webhook delivery job", () => {
  it("keeps claiming as attempts finish, without waiting for the poll", async () => {
    const { actor } = await setupEndpoint(t.db, rx.url);
    rx.setHandler(answer(200));
    // Queue more than the job's concurrency before it starts: only its own pumping can deliver the rest.
    for (let i = 0; i < 24; i++) {
      await withEvents(t.db, (tx) =>
        recordEvent(tx, { organisationId: actor.organisation.id, workspaceId: actor.workspace.id, event: "PACKAGE_SENT", data: packageSent(`q${i}`) }),
      );
    }
    const before = rx.received.length;
    const worker = await startWorker(t.handle, [createWebhookDeliveryJob({ concurrency: 8 })], { pollMs: 60_000 });
    try {
      await rx.waitFor(before + 24);
    } finally {
      await worker.stop();
    }
    expect(rx.received.length).toBe(before + 24);
  });

  it("delivers on the wake-up after commit and releases an attempt in flight on stop", async () => {
    const { actor } = await setupEndpoint(t.db, rx.url);
    const start = rx.received.length;
    const worker = await startWorker(t.handle, [createWebhookDeliveryJob()], { pollMs: 60_000 });
    try {
      rx.setHandler(answer(200));
      const first = await withEvents(t.db, (tx) =>
        recordEvent(tx, { organisationId: actor.organisation.id, workspaceId: actor.workspace.id, event: "PACKAGE_SENT", data: packageSent("p1") }),
      );
      const req = (await rx.waitFor(start + 1))[start];
      expect(req!.headers["x-foliosign-delivery-id"]).toBe(first.deliveryIds[0]);

      // The next receiver call hangs: the attempt is in flight when the worker stops.
      rx.setHandler(() => {});
      const second = await withEvents(t.db, (tx) =>
        recordEvent(tx, { organisationId: actor.organisation.id, workspaceId: actor.workspace.id, event: "PACKAGE_SENT", data: packageSent("p2") }),
      );
      await rx.waitFor(start + 2);
      expect((await deliveryRow(t.db, second.deliveryIds[0]!)).attempts).toBe(1);
    } finally {
      await worker.stop();
    }
    const first = await deliveryRow(t.db, rx.received[start]!.headers["x-foliosign-delivery-id"] as string);
    expect(first.status).toBe("DELIVERED");
    const released = await deliveryRow(t.db, rx.received[start + 1]!.headers["x-foliosign-delivery-id"] as string);
    expect(released).toMatchObject({ status: "PENDING", attempts: 0, claimToken: null, lockedUntil: null });
  });
});
