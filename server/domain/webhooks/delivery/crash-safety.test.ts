/**
 * Protects "a delivery that loses nothing" across processes, on PostgreSQL, with two worker processes running
 * AT THE SAME TIME: worker A claims a delivery and is SIGKILLed while the receiver holds its request; worker B
 * was already running beside it (and, while A's lease held, did not touch the delivery). B is started first,
 * its clock a few seconds behind so that the event's wake-up (which reaches both) cannot give it the delivery:
 * spawned after A's claim, as it once was, B had to start within A's 10 s deadline, which a loaded machine
 * missed (A's attempt then timed out and was recorded before A was killed). B's clock is then
 * moved past the time the lost attempt's retry is due (no waiting) and B completes the delivery — same
 * delivery id, attempt 2 — and a late write carrying the dead worker's claim token is refused and changes
 * nothing.
 *
 * Skipped without DATABASE_URL: PGlite allows one process per data directory, so two worker processes need
 * PostgreSQL. Run: DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx vitest run server/domain/webhooks
 */
import { eq } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { webhookAttempts } from "@/server/db/schema";
import { killAll, spawnWorker as spawnAnyWorker } from "@/server/jobs/test-support/spawn-worker";
import { useTestDb } from "@/server/test/db";
import { LOST_ATTEMPT_ERROR } from "./claim-deliveries";
import { WEBHOOK_LIMITS } from "@/server/domain/webhooks/limits";
import { recordAttemptOutcome } from "./record-attempt-outcome";
import { recordEvent } from "@/server/domain/webhooks/events/record-event";
import { scheduledDelayMs } from "./retry-schedule";
import { withEvents } from "@/server/domain/transaction";
import { answer } from "@/server/domain/webhooks/test-support/receiver";
import { useLocalReceiver } from "@/server/domain/webhooks/test-support/use-local-receiver";
import { deliveryRow, packageSent, setupEndpoint } from "@/server/domain/webhooks/test-support/fixtures";

const base = process.env.DATABASE_URL;
const t = useTestDb();
const rx = useLocalReceiver();
afterAll(killAll);

/** A worker process that may deliver to the local receiver. */
const spawnWorker = (url: string, name: string, offsetMs = 0) => spawnAnyWorker(url, name, { offsetMs, env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: "true" } });
/** How far B's clock starts behind: the new delivery is not yet due for B when the wake-up reaches it. */
const B_BEHIND_MS = 5_000;

describe.skipIf(!base)("crash safety with two worker processes (PostgreSQL)", () => {
  it("B, running beside A, completes the delivery A was SIGKILLed on, under the same id; A's stale token is refused", async () => {
    const url = t.url;
    const { actor, endpoint } = await setupEndpoint(t.db, rx.url);
    rx.setHandler(() => {}); // worker A's request is held open: A dies mid-delivery

    const b = await spawnWorker(url, "B", -B_BEHIND_MS);
    await b.logged((l) => l.msg === "worker started");
    const a = await spawnWorker(url, "A");
    await a.logged((l) => l.msg === "worker started");
    const [id] = (
      await withEvents(t.db, (tx) =>
        recordEvent(tx, { organisationId: actor.organisation.id, workspaceId: actor.workspace.id, event: "PACKAGE_SENT", data: packageSent() }),
      )
    ).deliveryIds;
    await rx.waitFor(1);
    const claimedByA = await deliveryRow(t.db, id!);
    expect(claimedByA).toMatchObject({ status: "PENDING", attempts: 1 });
    expect(claimedByA.claimToken).toBeTruthy();

    // B's clock catches up (the delivery is due for B now too) and B runs a tick: A's lease is respected.
    await b.command({ cmd: "advance", ms: B_BEHIND_MS }, "advanced");
    expect(rx.received).toHaveLength(1);
    expect(await deliveryRow(t.db, id!)).toMatchObject({ claimToken: claimedByA.claimToken, attempts: 1 });

    // A dies mid-delivery; B is still running.
    a.child.kill("SIGKILL");
    expect(await a.exited).toBeNull();
    expect(b.child.exitCode).toBeNull();

    // Past A's lease but before the retry is due, B leaves it alone; once due (1 min after the lost attempt), B
    // delivers it.
    rx.setHandler(answer(200));
    await b.command({ cmd: "advance", ms: WEBHOOK_LIMITS.leaseMs + 1000 }, "advanced");
    expect(rx.received).toHaveLength(1);
    const finished = b.logged((l) => l.msg === "webhook attempt finished" && l.deliveryId === id);
    await b.command({ cmd: "advance", ms: scheduledDelayMs(1) - WEBHOOK_LIMITS.leaseMs }, "advanced");
    expect(await finished).toMatchObject({ outcome: "recorded", status: "DELIVERED", attempt: 2 });
    expect(rx.received.map((r) => r.headers["x-foliosign-delivery-id"])).toEqual([id, id]);
    const done = await deliveryRow(t.db, id!);
    expect(done).toMatchObject({ status: "DELIVERED", attempts: 2, claimToken: null });

    // A's late write (had it survived) carries A's token: refused, nothing changes.
    const late = await recordAttemptOutcome(
      t.db,
      { id: id!, token: claimedByA.claimToken!, attempt: 1, endpointId: endpoint.id },
      { ok: false, status: 500, body: "late", error: "HTTP 500", durationMs: 1, remoteAddress: "127.0.0.1", retryAfterMs: null, startedAt: new Date() },
    );
    expect(late).toEqual({ kind: "stale" });
    expect(await deliveryRow(t.db, id!)).toEqual(done);
    // Attempt 1 (A's, lost) is logged as such when B takes the delivery over; attempt 2 is B's answer.
    const logged = await t.db.select().from(webhookAttempts).where(eq(webhookAttempts.deliveryId, id!)).orderBy(webhookAttempts.attemptNumber);
    expect(logged.map((x) => [x.attemptNumber, x.error === LOST_ATTEMPT_ERROR, x.responseStatus])).toEqual([
      [1, true, null],
      [2, false, 200],
    ]);

    b.child.kill("SIGTERM");
    expect(await b.exited).toBe(0);
  });
});
