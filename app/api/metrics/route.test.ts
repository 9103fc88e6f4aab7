/** /api/metrics is absent without METRICS_TOKEN and refuses callers without that exact bearer token. */
import { afterEach, describe, expect, it } from "vitest";
import { resetEnvCache } from "@/server/env";
import { useTestDb } from "@/server/test/db";
import { GET } from "./route";

useTestDb();
const TOKEN = "metrics-token-0123456789";
const call = (auth?: string) => GET(new Request("http://localhost/api/metrics", { headers: auth ? { authorization: auth } : {} }));

afterEach(() => {
  delete process.env.METRICS_TOKEN;
  resetEnvCache();
});

describe("GET /api/metrics", () => {
  it("is 404 when METRICS_TOKEN is not set", async () => {
    expect((await call(`Bearer ${TOKEN}`)).status).toBe(404);
  });

  it("is 401 without the token or with a wrong one, 200 Prometheus text with it", async () => {
    process.env.METRICS_TOKEN = TOKEN;
    resetEnvCache();
    expect((await call()).status).toBe(401);
    expect((await call("Bearer wrong-token-0123456789")).status).toBe(401);
    const ok = await call(`Bearer ${TOKEN}`);
    expect(ok.status).toBe(200);
    expect(ok.headers.get("content-type")).toContain("text/plain");
    expect(await ok.text()).toContain("# TYPE foliosign_webhook_queue_backlog gauge");
  });
});
