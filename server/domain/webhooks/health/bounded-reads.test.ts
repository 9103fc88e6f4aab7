/**
 * The webhook pages read what they show, not the retained history (bench:dashboards measures the same at a million
 * deliveries). One endpoint has a long history (HISTORY deliveries ten days old, an attempt each) and, in the last
 * hour, two deliveries attempted and two still queued; each read runs in a transaction with sequential scans priced
 * out (so a read can only avoid the history through an index that serves it, as it must at scale), and the
 * transaction's own table statistics (pg_stat_xact_*) count the rows and index entries it read from the three
 * tables that grow with the history: deliveries, attempts and the queue. (What it cannot see: an index scan whose
 * condition skips the index's leading column walks the whole index but counts only the entries it returns. The
 * reads here lead with the endpoint.)
 */
import { sql } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { queryRows, type Db } from "@/server/db/client";
import { workspaceActor } from "@/server/test/actors";
import { useTestDb } from "@/server/test/db";
import { createTestOrg } from "@/server/test/factories";
import { setClock } from "@/server/lib/clock";
import type { TActor } from "@/server/domain/access/actor";
import { webhookEndpoints } from "@/server/db/schema";
import { encryptSecret } from "@/server/lib/crypto";
import { idArray, newId } from "@/server/lib/ids";
import { getEndpoint } from "@/server/domain/webhooks/endpoints/get-endpoint";
import { getDeliveryLog } from "./get-delivery-log";
import { getEndpointChart } from "./get-endpoint-chart";
import { getEndpointSummary } from "./get-endpoint-summary";
import { getWebhookOverview } from "./get-webhook-overview";
import { listEndpointHealth } from "./list-endpoint-health";

const t = useTestDb();
const AT = new Date("2030-05-10T12:40:00.000Z");
const HISTORY = 400;
const GROWING = ["webhook_deliveries", "webhook_attempts", "webhook_queue"];

/**
 * The rows and index entries the growing tables gave their scans so far: a table's tuples returned are its sequential
 * scans' rows, an index's the entries its scans read. The counters are the backend's own, not yet reported
 * (pg_stat_xact_*): they may hold earlier statements' reads too, so a read is measured as a difference.
 */
async function entriesSoFar(tx: Db): Promise<Record<string, number>> {
  const rows = await queryRows<{ name: string; n: number }>(
    tx,
    sql`select c.relname as name, pg_stat_get_xact_tuples_returned(c.oid) as n
        from pg_class c
        where c.oid in (select r.oid from pg_class r where r.relname = any(${idArray(GROWING)}::text[]) and r.relkind = 'r'
                        union all
                        select i.indexrelid from pg_index i join pg_class r on r.oid = i.indrelid
                        where r.relname = any(${idArray(GROWING)}::text[]))`,
  );
  return Object.fromEntries(rows.map((r) => [r.name, Number(r.n)]));
}

/** Rows and index entries read from the growing tables by `read`, run in a transaction of its own. */
async function entriesRead(read: (tx: Db) => Promise<unknown>): Promise<number> {
  let n = -1;
  await t.db.transaction(async (tx) => {
    await tx.execute(sql`select set_config('enable_seqscan', 'off', true)`);
    const before = await entriesSoFar(tx);
    await read(tx);
    const after = await entriesSoFar(tx);
    const by = Object.entries(after).map(([name, v]) => [name, v - (before[name] ?? 0)] as const);
    n = by.reduce((sum, [, v]) => sum + v, 0);
  });
  return n;
}

let actor: TActor;
let endpointId: string;

beforeEach(async () => {
  setClock(() => AT);
  const org = await createTestOrg(t.db);
  actor = workspaceActor(org.organisationId, org.workspaceId);
  // Only a row (nothing is sent): written directly, so no address is vetted.
  endpointId = newId("whe");
  await t.db.insert(webhookEndpoints).values({
    id: endpointId,
    organisationId: org.organisationId,
    workspaceId: org.workspaceId,
    url: "https://hooks.example.com/in",
    events: ["PACKAGE_SENT"],
    secretEncrypted: encryptSecret("whsec_test"),
  });
  const old = new Date(AT.getTime() - 10 * 86_400_000).toISOString();
  const recent = new Date(AT.getTime() - 30 * 60_000).toISOString();
  // Rows as the engine leaves them: a finished delivery with its attempts, a queued one with its queue row.
  await t.db.execute(sql`insert into webhook_events (id, organisation_id, workspace_id, event, payload, body, created_at)
    select 'ev_' || g, ${org.organisationId}, ${org.workspaceId}, 'PACKAGE_SENT', '{}'::jsonb, '{}', ${old}::timestamptz
    from generate_series(1, ${HISTORY + 4}::int) g`);
  await t.db.execute(sql`insert into webhook_deliveries (id, event_id, endpoint_id, event, status, attempts, created_at, completed_at)
    select 'whd_' || g, 'ev_' || g, ${endpointId}, 'PACKAGE_SENT',
      case when g <= ${HISTORY + 2}::int then 'DELIVERED' when g = ${HISTORY + 3}::int then 'PENDING' else 'FAILED' end,
      case when g <= ${HISTORY + 2}::int then 1 when g = ${HISTORY + 3}::int then 0 else 1 end,
      case when g <= ${HISTORY}::int then ${old}::timestamptz + g * interval '1 second' else ${recent}::timestamptz - g * interval '1 millisecond' end,
      case when g <= ${HISTORY + 2}::int then ${recent}::timestamptz end
    from generate_series(1, ${HISTORY + 4}::int) g`);
  await t.db.execute(sql`insert into webhook_attempts (id, delivery_id, endpoint_id, attempt_number, started_at, duration_ms, response_status)
    select 'wha_' || d.id, d.id, d.endpoint_id, 1, d.created_at, 40, case when d.status = 'FAILED' then 500 else 200 end
    from webhook_deliveries d where d.attempts = 1`);
  await t.db.execute(sql`insert into webhook_queue (delivery_id, endpoint_id, event_id, event, next_attempt_at, attempts)
    select d.id, d.endpoint_id, d.event_id, d.event, ${AT.toISOString()}::timestamptz, d.attempts
    from webhook_deliveries d where d.status in ('PENDING', 'FAILED')`);
  await t.db.execute(sql`analyze webhook_deliveries`);
  await t.db.execute(sql`analyze webhook_attempts`);
  await t.db.execute(sql`analyze webhook_queue`);
});

describe("the webhook pages' reads are bounded by what they show", () => {
  it("the endpoints dashboard and the endpoint page's header: the day's deliveries and attempts, and one newest attempt", async () => {
    let list: Awaited<ReturnType<typeof listEndpointHealth>> | undefined;
    expect(await entriesRead(async (tx) => (list = await listEndpointHealth(tx, actor)))).toBeLessThan(20);
    // Figures from those few rows: the four recent deliveries, their three attempts (one failed), the one waiting PENDING.
    expect(list!.pendingDeliveries).toBe(1);
    expect(list!.endpoints[0]).toMatchObject({ id: endpointId, deliveryCount24h: 4, attemptCount24h: 3, successRate24h: 2 / 3 });
    expect(await entriesRead((tx) => getEndpointSummary(tx, actor, { endpointId }))).toBeLessThan(20);
  });

  it("the endpoint page's chart: the range's deliveries and attempts", async () => {
    let chart: Awaited<ReturnType<typeof getEndpointChart>> | undefined;
    expect(await entriesRead(async (tx) => (chart = await getEndpointChart(tx, actor, { endpointId, range: "24h" })))).toBeLessThan(20);
    expect(chart!.buckets.at(-1)).toMatchObject({ deliveries: { PENDING: 1, DELIVERED: 2, FAILED: 1, EXHAUSTED: 0 }, attempts: 3 });
  });

  it("the overview: the waiting deliveries through the queue", async () => {
    let overview: Awaited<ReturnType<typeof getWebhookOverview>> | undefined;
    expect(await entriesRead(async (tx) => (overview = await getWebhookOverview(tx, actor, AT)))).toBeLessThan(20);
    expect(overview!.deliveries24h).toEqual({ PENDING: 1, DELIVERED: 2, FAILED: 1, EXHAUSTED: 0 });
    expect(overview!.oldestWaiting?.ageSeconds).toBe(30 * 60);
  });

  it("the delivery log: its page, its count (the endpoint's history, once) and the waiting ones through the queue", async () => {
    let log: Awaited<ReturnType<typeof getDeliveryLog>> | undefined;
    const read = await entriesRead(async (tx) => (log = await getDeliveryLog(tx, actor, { endpointId, page: 1, pageSize: 25 })));
    expect(log!.deliveryCount).toBe(HISTORY + 4);
    expect(log!.waiting).toEqual({ pending: 1, failed: 1 });
    // The count reads each of the endpoint's deliveries once; the page and the waiting figures add a few dozen.
    expect(read).toBeGreaterThanOrEqual(HISTORY);
    expect(read).toBeLessThan(HISTORY + 60);
  });

  it("the delivery log and the API's endpoint filtered to a waiting status: through the queue", async () => {
    let log: Awaited<ReturnType<typeof getDeliveryLog>> | undefined;
    expect(await entriesRead(async (tx) => (log = await getDeliveryLog(tx, actor, { endpointId, page: 1, pageSize: 25, status: "FAILED" })))).toBeLessThan(20);
    expect(log!.deliveries.map((d) => d.id)).toEqual([`whd_${HISTORY + 4}`]);
    expect(log!.deliveryCount).toBe(1);
    let api: Awaited<ReturnType<typeof getEndpoint>> | undefined;
    expect(await entriesRead(async (tx) => (api = await getEndpoint(tx, actor, { endpointId, page: 1, pageSize: 25, status: "PENDING" })))).toBeLessThan(20);
    expect(api!.deliveries.map((d) => d.id)).toEqual([`whd_${HISTORY + 3}`]);
    expect(api!.deliveryCount).toBe(1);
  });
});
