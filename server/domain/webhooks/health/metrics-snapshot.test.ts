/**
 * /api/metrics reads its figures in one snapshot (render-metrics.ts). On PostgreSQL a second connection holds the
 * queue locked, so the scrape has read the finished deliveries' tallies and waits to read the queue; that connection
 * then finishes one of three queued deliveries (dequeued and DELIVERED, as an outcome does) and commits. Read one
 * after the other, the scrape then counted the delivery in neither place: 2 PENDING and 0 DELIVERED of 3 stored.
 * From one snapshot it counts 3 PENDING, as they were when it began, and the next scrape 2 and 1.
 */
import postgres from "postgres";
import { describe, expect, it, vi } from "vitest";
import { useTestDb } from "@/server/test/db";
import { raisePackageSent, setupEndpoint } from "@/server/domain/webhooks/test-support/fixtures";
import { renderMetrics } from "./render-metrics";

const t = useTestDb();

const byStatus = (text: string) =>
  Object.fromEntries(
    text
      .split("\n")
      .filter((l) => l.startsWith("foliosign_webhook_deliveries{"))
      .map((l) => [/status="(\w+)"/.exec(l)![1]!, Number(l.split(" ")[1])]),
  );
const backlog = (text: string) => Number(/^foliosign_webhook_queue_backlog (\d+)$/m.exec(text)![1]);

describe("the metrics scrape", () => {
  it.skipIf(!process.env.DATABASE_URL)("PostgreSQL: reads every figure in one snapshot, so a delivery finishing meanwhile is counted once", async () => {
    const { actor } = await setupEndpoint(t.db, "https://93.184.216.34/hook");
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push(...(await raisePackageSent(t.db, actor, `p_${i}`)).deliveryIds);
    const other = postgres(t.url, { max: 2, onnotice: () => {} });
    try {
      const holder = await other.reserve();
      await holder`begin`;
      await holder`lock table webhook_queue in access exclusive mode`;
      const scrape = renderMetrics(t.db, new Date());
      // The scrape has read the tallies and waits for the queue.
      await vi.waitFor(
        async () => {
          const [row] = await other<{ n: number }[]>`
            select count(*)::int as n from pg_locks where relation = 'webhook_queue'::regclass and not granted`;
          expect(row!.n).toBeGreaterThan(0);
        },
        { timeout: 5_000, interval: 10 },
      );
      // One delivery finishes meanwhile, as an outcome finishes it: out of the queue, DELIVERED.
      await holder`delete from webhook_queue where delivery_id = ${ids[0]!}`;
      await holder`update webhook_deliveries set status = 'DELIVERED', attempts = 1, completed_at = now(), updated_at = now() where id = ${ids[0]!}`;
      await holder`commit`;
      holder.release();
      const text = await scrape;
      expect(byStatus(text)).toEqual({ PENDING: 3, DELIVERED: 0, FAILED: 0, EXHAUSTED: 0 });
      expect(backlog(text)).toBe(3);
      const after = await renderMetrics(t.db, new Date());
      expect(byStatus(after)).toEqual({ PENDING: 2, DELIVERED: 1, FAILED: 0, EXHAUSTED: 0 });
      expect(backlog(after)).toBe(2);
    } finally {
      await other.end();
    }
  });

  it("runs its read-only snapshot on either driver: the backlog is the PENDING and FAILED deliveries it counts", async () => {
    const { actor } = await setupEndpoint(t.db, "https://93.184.216.34/hook", { name: "Quiet" });
    await raisePackageSent(t.db, actor, "q_1");
    const text = await renderMetrics(t.db, new Date());
    expect(byStatus(text).PENDING).toBeGreaterThanOrEqual(1);
    expect(backlog(text)).toBe(byStatus(text).PENDING! + byStatus(text).FAILED!);
  });
});
