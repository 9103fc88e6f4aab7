/**
 * A package's events reach an endpoint in order while none fails (the spec's Ordering: PACKAGE_SENT before that
 * package's SESSION_SENT…; "a retried delivery can arrive after later ones"): the worker job and deliverDueWebhooks
 * send one package's deliveries to an endpoint one at a time, by due time and then `sequence`, each after the
 * previous one's answer — while other packages' deliveries to the same endpoint go out beside them, and a failed
 * attempt (its retry due later) holds nothing back.
 */
import { describe, expect, it, vi } from "vitest";
import type { Db } from "@/server/db/client";
import { withEvents } from "@/server/domain/transaction";
import { recordEvent } from "@/server/domain/webhooks/events/record-event";
import { deliveryRow, packageSent, setupEndpoint } from "@/server/domain/webhooks/test-support/fixtures";
import { answer, type TReceived } from "@/server/domain/webhooks/test-support/receiver";
import { useLocalReceiver } from "@/server/domain/webhooks/test-support/use-local-receiver";
import { createWebhookDeliveryJob } from "@/server/jobs/webhook-delivery-job";
import { startWorker } from "@/server/jobs/worker";
import { useTestDb } from "@/server/test/db";
import { setClaimRound } from "./claim-deliveries";
import { deliverDueWebhooks } from "./deliver-due-webhooks";

const t = useTestDb();
const rx = useLocalReceiver();

/** `perPackage` events of each package, each package's raised in ONE transaction (so they are due at once). */
async function eventsOf(name: string, packages: readonly string[], perPackage: number) {
  const { actor, endpoint } = await setupEndpoint(t.db, rx.url.replace("/hook", `/${name}`), { name });
  const ids: string[] = [];
  for (const packageId of packages) {
    await withEvents(t.db, async (tx) => {
      for (let i = 0; i < perPackage; i++) {
        const raised = await recordEvent(tx, {
          organisationId: actor.organisation.id,
          workspaceId: actor.workspace.id,
          event: "PACKAGE_SENT",
          data: packageSent(packageId),
        });
        ids.push(...raised.deliveryIds);
      }
    });
  }
  return { endpoint, ids };
}

const envelope = (r: TReceived) => JSON.parse(r.body) as { sequence: number; data: { packageId: string } };

/**
 * A receiver that answers each request after `delayMs` (or as `status` says), and records per package how many
 * of its requests were open at once and the order of their sequences.
 */
function orderedReceiver(delayMs: number, status: (e: ReturnType<typeof envelope>) => number = () => 200) {
  const open = new Map<string, number>();
  const most = new Map<string, number>();
  const arrived = new Map<string, number[]>();
  let openAll = 0;
  let mostAll = 0;
  rx.setHandler((req, res) => {
    const e = envelope(req);
    const pkg = e.data.packageId;
    open.set(pkg, (open.get(pkg) ?? 0) + 1);
    most.set(pkg, Math.max(most.get(pkg) ?? 0, open.get(pkg)!));
    arrived.set(pkg, [...(arrived.get(pkg) ?? []), e.sequence]);
    openAll += 1;
    mostAll = Math.max(mostAll, openAll);
    setTimeout(() => {
      open.set(pkg, open.get(pkg)! - 1);
      openAll -= 1;
      answer(status(e))(req, res);
    }, delayMs);
  });
  return { most, arrived, mostAll: () => mostAll };
}

const allDelivered = (db: Db, ids: readonly string[]) =>
  vi.waitFor(async () => expect((await Promise.all(ids.map((id) => deliveryRow(db, id)))).map((r) => r.status)).toEqual(ids.map(() => "DELIVERED")), {
    timeout: 10_000,
    interval: 25,
  });

describe("a package's events at an endpoint", () => {
  it("arrive one at a time and in sequence order from the worker job, while other packages' go out beside them", async () => {
    setClaimRound();
    const { ids } = await eventsOf("job", ["pkg_a", "pkg_b", "pkg_c"], 5);
    const seen = orderedReceiver(40);
    const before = rx.received.length;
    const worker = await startWorker(t.handle, [createWebhookDeliveryJob()], { pollMs: 60_000 });
    try {
      await rx.waitFor(before + 15);
      await allDelivered(t.db, ids);
    } finally {
      await worker.stop();
    }
    for (const pkg of ["pkg_a", "pkg_b", "pkg_c"]) {
      expect(seen.arrived.get(pkg)).toEqual([1, 2, 3, 4, 5]);
      expect(seen.most.get(pkg)).toBe(1);
    }
    // The three packages were sent side by side (the endpoint is not sent one request at a time).
    expect(seen.mostAll()).toBeGreaterThan(1);
    expect(rx.received.length).toBe(before + 15);
  });

  it("are not held back by a failed attempt: its retry is due later, the package's later events go on", async () => {
    setClaimRound();
    const { ids } = await eventsOf("fails", ["pkg_f"], 4);
    // The first event's attempt fails; the others succeed.
    const seen = orderedReceiver(10, (e) => (e.sequence === 1 ? 500 : 200));
    const before = rx.received.length;
    const worker = await startWorker(t.handle, [createWebhookDeliveryJob()], { pollMs: 60_000 });
    try {
      await rx.waitFor(before + 4);
      await allDelivered(t.db, ids.slice(1));
    } finally {
      await worker.stop();
    }
    expect(seen.arrived.get("pkg_f")).toEqual([1, 2, 3, 4]);
    const first = await deliveryRow(t.db, ids[0]!);
    expect(first).toMatchObject({ status: "FAILED", attempts: 1 });
    expect(first.nextAttemptAt!.getTime()).toBeGreaterThan(Date.now());
  });

  it("arrive one at a time and in sequence order from deliverDueWebhooks", async () => {
    setClaimRound();
    const { ids } = await eventsOf("direct", ["pkg_x", "pkg_y"], 4);
    const seen = orderedReceiver(20);
    const results = await deliverDueWebhooks(t.db, { limit: 50 });
    expect(results).toHaveLength(8);
    expect(seen.arrived.get("pkg_x")).toEqual([1, 2, 3, 4]);
    expect(seen.arrived.get("pkg_y")).toEqual([1, 2, 3, 4]);
    expect(seen.most.get("pkg_x")).toBe(1);
    expect(seen.mostAll()).toBeGreaterThan(1);
    await allDelivered(t.db, ids);
  });
});
