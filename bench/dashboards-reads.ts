/**
 * The reads bench:dashboards times, in a process of their own (bench/dashboards.ts forks it, from this checkout or
 * from BENCH_BASE's, so the same reads run as either build wrote them): `tsx bench/dashboards-reads.ts <json>`,
 * with the scratch database's url, the workspace and the endpoint. Each read runs once to warm up, then `reps`
 * times; the times (ms) go back to the parent.
 */
type TInput = { url: string; organisationId: string; workspaceId: string; endpointId: string; reps: number };

async function main() {
  const input = JSON.parse(process.argv[2]!) as TInput;
  const { openPostgres, setDbHandle } = await import("@/server/db/client");
  const { workspaceActor } = await import("@/server/test/actors");
  const { listEndpointHealth } = await import("@/server/domain/webhooks/health/list-endpoint-health");
  const { getEndpointSummary } = await import("@/server/domain/webhooks/health/get-endpoint-summary");
  const { getEndpointChart } = await import("@/server/domain/webhooks/health/get-endpoint-chart");
  const { getDeliveryLog } = await import("@/server/domain/webhooks/health/get-delivery-log");
  const { getWebhookOverview } = await import("@/server/domain/webhooks/health/get-webhook-overview");
  const { getEndpoint } = await import("@/server/domain/webhooks/endpoints/get-endpoint");
  const { renderMetrics } = await import("@/server/domain/webhooks/health/render-metrics");
  const handle = await openPostgres(input.url, { max: 4 });
  setDbHandle(handle);
  const db = handle.db;
  const actor = workspaceActor(input.organisationId, input.workspaceId);
  const { endpointId } = input;
  const reads: [string, () => Promise<unknown>][] = [
    ["endpoints dashboard (every endpoint's health)", () => listEndpointHealth(db, actor)],
    ["endpoint page: header (its health)", () => getEndpointSummary(db, actor, { endpointId })],
    ["endpoint page: chart, 24 hours", () => getEndpointChart(db, actor, { endpointId, range: "24h" })],
    ["endpoint page: chart, 7 days", () => getEndpointChart(db, actor, { endpointId, range: "7d" })],
    ["endpoint page: delivery log", () => getDeliveryLog(db, actor, { endpointId, page: 1, pageSize: 25 })],
    ["endpoint page: delivery log, FAILED", () => getDeliveryLog(db, actor, { endpointId, page: 1, pageSize: 25, status: "FAILED" })],
    ["endpoint page: delivery log, EXHAUSTED", () => getDeliveryLog(db, actor, { endpointId, page: 1, pageSize: 25, status: "EXHAUSTED" })],
    ["overview: webhook health", () => getWebhookOverview(db, actor)],
    ["GET /api/v1/webhooks/{id}", () => getEndpoint(db, actor, { endpointId, page: 1, pageSize: 25 })],
    ["GET /api/v1/webhooks/{id}?status=FAILED", () => getEndpoint(db, actor, { endpointId, page: 1, pageSize: 25, status: "FAILED" })],
    ["GET /api/metrics (instance-wide)", () => renderMetrics(db, new Date())],
  ];
  const times: Record<string, number[]> = {};
  for (const [name, read] of reads) {
    await read();
    times[name] = [];
    for (let i = 0; i < input.reps; i++) {
      const s = performance.now();
      await read();
      times[name].push(performance.now() - s);
    }
  }
  await handle.close();
  process.send!(times);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
