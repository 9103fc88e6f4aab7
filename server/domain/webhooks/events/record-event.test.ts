/**
 * Protects the outbox: an event and its deliveries are written in the caller's transaction or not at all
 * (a rolled-back change leaves no event, no delivery, no sequence step); fan-out reaches exactly the
 * subscribed, enabled, non-Failing endpoints of the event's workspace; the envelope is the spec's, with
 * `metadata` always present and an additive per-package `sequence`; workers are woken after commit only; and,
 * with no foreign keys on the fan-out's rows, an endpoint deleted while a fan-out to it runs leaves no delivery
 * or queue row behind, whichever commits first (PostgreSQL).
 */
import { workspaceActor } from "@/server/test/actors";
import postgres from "postgres";
import { count, eq } from "drizzle-orm";
import { describe, expect, it, vi } from "vitest";
import { webhookDeliveries, webhookEndpoints, webhookEvents, webhookQueue } from "@/server/db/schema";
import { WAKE_CHANNEL } from "@/server/db/client";
import { deleteEndpoint } from "@/server/domain/webhooks/endpoints/delete-endpoint";
import { setClock } from "@/server/lib/clock";
import { useTestDb } from "@/server/test/db";
import { createTestWorkspace } from "@/server/test/factories";
import { createEndpoint } from "@/server/domain/webhooks/endpoints/create-endpoint";
import { recordEvent } from "./record-event";
import { packageSent, raisePackageSent, setupEndpoint } from "@/server/domain/webhooks/test-support/fixtures";
import { withEvents } from "@/server/domain/transaction";

const t = useTestDb();
const URL_A = "https://93.184.216.34/a";

async function counts() {
  const [events] = await t.db.select({ n: count() }).from(webhookEvents);
  const [deliveries] = await t.db.select({ n: count() }).from(webhookDeliveries);
  return { events: events!.n, deliveries: deliveries!.n };
}

describe("recordEvent", () => {
  it("fans out to subscribed, enabled, non-Failing endpoints of the workspace only", async () => {
    const { org, actor, endpoint } = await setupEndpoint(t.db, URL_A);
    const onlySessions = await createEndpoint(t.db, actor, { url: URL_A, events: ["SESSION_SENT"] });
    const paused = await createEndpoint(t.db, actor, { url: URL_A });
    const failing = await createEndpoint(t.db, actor, { url: URL_A });
    await t.db.update(webhookEndpoints).set({ enabled: false }).where(eq(webhookEndpoints.id, paused.id));
    await t.db.update(webhookEndpoints).set({ consecutiveFailures: 10, failingSince: new Date() }).where(eq(webhookEndpoints.id, failing.id));
    const otherWs = await createTestWorkspace(t.db, org.organisationId, "north");
    await createEndpoint(t.db, workspaceActor(org.organisationId, otherWs), { url: URL_A });

    const recorded = await raisePackageSent(t.db, actor);
    const rows = await t.db.select().from(webhookDeliveries);
    expect(rows.map((r) => r.endpointId)).toEqual([endpoint.id]);
    expect(recorded.deliveryIds).toEqual([rows[0]!.id]);
    expect(rows[0]).toMatchObject({ status: "PENDING", attempts: 0, event: "PACKAGE_SENT" });
    expect(onlySessions.events).toEqual(["SESSION_SENT"]);
  });

  it("serialises the spec's envelope once, metadata always present, with a per-package sequence", async () => {
    const { actor } = await setupEndpoint(t.db, URL_A);
    setClock(() => new Date("2030-05-01T10:00:00.000Z"));
    const first = await raisePackageSent(t.db, actor, "pkg_a");
    const second = await t.db.transaction((tx) =>
      recordEvent(tx, {
        organisationId: actor.organisation.id,
        workspaceId: actor.workspace.id,
        event: "SESSION_OPENED",
        data: { packageId: "pkg_a", sessionId: "ses_1", recipientName: null, recipientEmail: null, metadata: {} },
      }),
    );
    const other = await raisePackageSent(t.db, actor, "pkg_b");
    expect([first.sequence, second.sequence, other.sequence]).toEqual([1, 2, 1]);
    const [event] = await t.db.select().from(webhookEvents).where(eq(webhookEvents.id, second.eventId));
    expect(JSON.parse(event!.body)).toEqual({
      event: "SESSION_OPENED",
      timestamp: "2030-05-01T10:00:00.000Z",
      sequence: 2,
      data: { packageId: "pkg_a", sessionId: "ses_1", recipientName: null, recipientEmail: null, metadata: {} },
    });
  });

  it("refuses a payload that does not match the catalogue, taking the caller's change with it", async () => {
    const { actor } = await setupEndpoint(t.db, URL_A);
    const bad = { ...packageSent(), signerCount: "two" } as unknown as ReturnType<typeof packageSent>;
    await expect(
      t.db.transaction((tx) => recordEvent(tx, { organisationId: actor.organisation.id, workspaceId: actor.workspace.id, event: "PACKAGE_SENT", data: bad })),
    ).rejects.toThrow();
    expect(await counts()).toEqual({ events: 0, deliveries: 0 });
  });

  it("leaves no event and no delivery when the caller's transaction rolls back", async () => {
    const { actor } = await setupEndpoint(t.db, URL_A);
    await expect(
      t.db.transaction(async (tx) => {
        await recordEvent(tx, { organisationId: actor.organisation.id, workspaceId: actor.workspace.id, event: "PACKAGE_SENT", data: packageSent() });
        expect((await tx.select({ n: count() }).from(webhookDeliveries))[0]!.n).toBe(1);
        throw new Error("the package change failed after the event was recorded");
      }),
    ).rejects.toThrow("the package change failed");
    expect(await counts()).toEqual({ events: 0, deliveries: 0 });
    // The sequence did not advance either: the next event of that package is still number 1.
    expect((await raisePackageSent(t.db, actor)).sequence).toBe(1);
  });

  it("wakes workers after the commit, when the rows are visible, and not on rollback", async () => {
    const { actor } = await setupEndpoint(t.db, URL_A);
    const seenAtWake: number[] = [];
    const original = t.handle.notify.bind(t.handle);
    const notify = vi.spyOn(t.handle, "notify").mockImplementation(async (channel) => {
      // Read from outside the transaction: a worker woken now must already see the delivery.
      seenAtWake.push((await t.db.select({ n: count() }).from(webhookDeliveries))[0]!.n);
      return original(channel);
    });
    try {
      await expect(
        withEvents(t.db, async (tx) => {
          await recordEvent(tx, { organisationId: actor.organisation.id, workspaceId: actor.workspace.id, event: "PACKAGE_SENT", data: packageSent() });
          throw new Error("rolled back");
        }),
      ).rejects.toThrow("rolled back");
      expect(notify).not.toHaveBeenCalled();
      await withEvents(t.db, (tx) =>
        recordEvent(tx, { organisationId: actor.organisation.id, workspaceId: actor.workspace.id, event: "PACKAGE_SENT", data: packageSent() }),
      );
      expect(notify).toHaveBeenCalledExactlyOnceWith(WAKE_CHANNEL);
      expect(seenAtWake).toEqual([1]);
    } finally {
      notify.mockRestore();
    }
  });
  it("wakes no worker after a commit whose events reached no endpoint or that raised none; a nested one's deliveries wake after the outer commit", async () => {
    const { actor } = await setupEndpoint(t.db, URL_A);
    const other = await createTestWorkspace(t.db, actor.organisation.id, "quiet");
    const raise = (tx: typeof t.db, workspaceId: string) =>
      recordEvent(tx, { organisationId: actor.organisation.id, workspaceId, event: "PACKAGE_SENT", data: packageSent() });
    const notify = vi.spyOn(t.handle, "notify");
    try {
      await withEvents(t.db, async () => undefined);
      const unheard = await withEvents(t.db, (tx) => raise(tx, other));
      expect(unheard.deliveryIds).toEqual([]);
      expect(notify).not.toHaveBeenCalled();
      await withEvents(t.db, (tx) => withEvents(tx, (inner) => raise(inner, actor.workspace.id)));
      // The inner withEvents wakes early (harmless: inside the transaction), the outer after its commit.
      expect(notify.mock.calls).toEqual([[WAKE_CHANNEL], [WAKE_CHANNEL]]);
    } finally {
      notify.mockRestore();
    }
  });
});

/**
 * The deliveries' endpoint is not a foreign key (migration 0030): the fan-out takes each endpoint it selects FOR
 * KEY SHARE, as the key's check did. Without that lock either order below leaves deliveries and queue rows of a
 * deleted endpoint (checked: both tests fail with `for key share of e` removed from record-event.ts).
 */
describe.skipIf(!process.env.DATABASE_URL)("a fan-out and its endpoint's deletion, concurrently (PostgreSQL)", () => {
  async function withOtherConnection<T>(work: (other: postgres.Sql) => Promise<T>): Promise<T> {
    const other = postgres(t.url, { max: 2, onnotice: () => {} });
    try {
      return await work(other);
    } finally {
      await other.end();
    }
  }
  /** Until a statement of this database waits for a row lock, or `settled` (then it is not waiting). */
  async function untilWaiting(other: postgres.Sql, settled: () => boolean): Promise<boolean> {
    for (let i = 0; i < 2_000; i++) {
      const [row] = await other<{ n: number }[]>`select count(*)::int as n from pg_locks l join pg_stat_activity a on a.pid = l.pid
        where a.datname = current_database() and not l.granted`;
      if (row!.n > 0) return true;
      if (settled()) return false;
      await new Promise((r) => setTimeout(r, 5));
    }
    throw new Error("neither waiting nor settled");
  }
  const left = async (endpointId: string) => ({
    deliveries: (await t.db.select({ n: count() }).from(webhookDeliveries).where(eq(webhookDeliveries.endpointId, endpointId)))[0]!.n,
    queued: (await t.db.select({ n: count() }).from(webhookQueue).where(eq(webhookQueue.endpointId, endpointId)))[0]!.n,
  });

  it("a deletion that starts while the fan-out is uncommitted waits for it, then takes its deliveries too", async () => {
    const { actor, endpoint } = await setupEndpoint(t.db, URL_A);
    const kept = await createEndpoint(t.db, actor, { url: URL_A });
    await withOtherConnection(async (other) => {
      let commit!: () => void;
      const held = new Promise<void>((r) => (commit = r));
      let fannedOut!: () => void;
      const written = new Promise<void>((r) => (fannedOut = r));
      const fanOut = t.db.transaction(async (tx) => {
        const recorded = await recordEvent(tx, {
          organisationId: actor.organisation.id,
          workspaceId: actor.workspace.id,
          event: "PACKAGE_SENT",
          data: packageSent(),
        });
        fannedOut();
        await held;
        return recorded;
      });
      await written;
      let deleted = false;
      const deletion = deleteEndpoint(t.db, actor, { endpointId: endpoint.id }).finally(() => (deleted = true));
      try {
        expect(await untilWaiting(other, () => deleted)).toBe(true);
      } finally {
        commit();
      }
      expect((await fanOut).deliveryIds).toHaveLength(2);
      await deletion;
    });
    expect(await left(endpoint.id)).toEqual({ deliveries: 0, queued: 0 });
    expect(await left(kept.id)).toEqual({ deliveries: 1, queued: 1 });
  });

  it("a fan-out that starts while the deletion is uncommitted waits for it, then skips the endpoint without failing", async () => {
    const { actor, endpoint } = await setupEndpoint(t.db, URL_A);
    const kept = await createEndpoint(t.db, actor, { url: URL_A });
    await withOtherConnection(async (other) => {
      const deleting = await other.reserve();
      try {
        await deleting`begin`;
        await deleting`delete from webhook_endpoints where id = ${endpoint.id}`;
        let done = false;
        const fanOut = raisePackageSent(t.db, actor).finally(() => (done = true));
        expect(await untilWaiting(other, () => done)).toBe(true);
        await deleting`commit`;
        const recorded = await fanOut;
        expect(recorded.deliveryIds).toHaveLength(1);
      } finally {
        deleting.release();
      }
    });
    expect(await left(endpoint.id)).toEqual({ deliveries: 0, queued: 0 });
    expect(await left(kept.id)).toEqual({ deliveries: 1, queued: 1 });
  });
});
