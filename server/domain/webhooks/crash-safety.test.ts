/**
 * Protects "a delivery that loses nothing" across processes, on PostgreSQL: two real worker processes share
 * the queue; the first claims a delivery and is SIGKILLed while the receiver holds its request; the second,
 * whose clock is shifted past the lease (no waiting), claims the same delivery — same delivery id, attempt 2 —
 * and completes it; a late write carrying the dead worker's claim token is refused and changes nothing.
 *
 * Skipped without DATABASE_URL: PGlite allows one process per data directory, so two worker processes need
 * PostgreSQL. Run: DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx vitest run server/domain/webhooks
 */
import { spawn, type ChildProcess } from "node:child_process";
import { createInterface } from "node:readline";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryRows } from "@/server/db/client";
import { resetEnvCache } from "@/server/env";
import { databaseUrl } from "@/server/test/global-setup";
import { useTestDb } from "@/server/test/db";
import { WEBHOOK_LIMITS } from "./limits";
import { recordAttemptOutcome } from "./record-attempt-outcome";
import { answer, startReceiver, type TReceiver } from "./test-support/receiver";
import { deliveryRow, raisePackageSent, setupEndpoint } from "./test-support/fixtures";

const base = process.env.DATABASE_URL;
const t = useTestDb();
let rx: TReceiver;
const children: ChildProcess[] = [];

beforeAll(async () => {
  process.env.WEBHOOK_ALLOW_PRIVATE_TARGETS = "true";
  resetEnvCache();
  rx = await startReceiver();
});
afterAll(async () => {
  for (const child of children) if (child.exitCode === null) child.kill("SIGKILL");
  process.env.WEBHOOK_ALLOW_PRIVATE_TARGETS = "false";
  resetEnvCache();
  await rx.close();
});

async function spawnWorker(url: string, clockOffsetMs: number) {
  const child = spawn(process.execPath, ["--import", "tsx", "server/domain/webhooks/test-support/worker-process.ts", String(clockOffsetMs)], {
    env: { ...process.env, DATABASE_URL: url, LOG_LEVEL: "info", WEBHOOK_ALLOW_PRIVATE_TARGETS: "true", WORKER_POLL_MS: "200" },
    stdio: ["ignore", "pipe", "inherit"],
  });
  children.push(child);
  const lines: Record<string, unknown>[] = [];
  const waiters: { match: (l: Record<string, unknown>) => boolean; resolve: (l: Record<string, unknown>) => void }[] = [];
  createInterface({ input: child.stdout! }).on("line", (text) => {
    let line: Record<string, unknown>;
    try {
      line = JSON.parse(text) as Record<string, unknown>;
    } catch {
      return;
    }
    lines.push(line);
    for (const w of [...waiters]) if (w.match(line)) w.resolve(line);
  });
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  const logged = (match: (l: Record<string, unknown>) => boolean) =>
    new Promise<Record<string, unknown>>((resolve) => {
      const found = lines.find(match);
      if (found) resolve(found);
      else waiters.push({ match, resolve });
    });
  return { child, exited, logged };
}

describe.skipIf(!base)("crash safety with two worker processes (PostgreSQL)", () => {
  it("completes a delivery whose worker was SIGKILLed, after the lease, under the same id; the stale token is refused", async () => {
    const [{ name }] = (await queryRows<{ name: string }>(t.db, sql`select current_database() as name`)) as [{ name: string }];
    const url = databaseUrl(base!, name);
    const { ctx, endpoint } = await setupEndpoint(t.db, rx.url);
    rx.setHandler(() => {}); // worker A's request is held open: A dies mid-delivery
    const [id] = (await raisePackageSent(t.db, ctx)).deliveryIds;

    const a = await spawnWorker(url, 0);
    await rx.waitFor(1);
    const claimedByA = await deliveryRow(t.db, id!);
    expect(claimedByA).toMatchObject({ status: "PENDING", attempts: 1 });
    expect(claimedByA.claimToken).toBeTruthy();
    a.child.kill("SIGKILL");
    expect(await a.exited).toBeNull();

    rx.setHandler(answer(200));
    const b = await spawnWorker(url, WEBHOOK_LIMITS.leaseMs + 1000);
    const finished = await b.logged((l) => l.msg === "webhook attempt finished" && l.deliveryId === id);
    expect(finished).toMatchObject({ outcome: "recorded", status: "DELIVERED", attempt: 2 });
    expect(rx.received.map((r) => r.headers["x-foliosign-delivery-id"])).toEqual([id, id]);
    expect(await deliveryRow(t.db, id!)).toMatchObject({ status: "DELIVERED", attempts: 2, claimToken: null });

    // A's late write (had it survived) carries A's token: refused, nothing changes.
    const late = await recordAttemptOutcome(
      t.db,
      { id: id!, token: claimedByA.claimToken!, attempt: 1, endpointId: endpoint.id },
      { ok: false, status: 500, body: "late", error: "HTTP 500", durationMs: 1, remoteAddress: "127.0.0.1", retryAfterMs: null, startedAt: new Date() },
    );
    expect(late).toEqual({ kind: "stale" });
    expect(await deliveryRow(t.db, id!)).toMatchObject({ status: "DELIVERED", attempts: 2, lastResponseStatus: 200 });

    b.child.kill("SIGTERM");
    expect(await b.exited).toBe(0);
  });
});
