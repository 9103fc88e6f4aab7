/**
 * Protects the quickstart of docs/webhooks.md, the first thing a new integrator follows: its Node receiver
 * (foliosign-receiver.mjs, importing the published verify-foliosign.mjs) is extracted, started as its own
 * process, registered through the API and sent a test event through POST /api/v1/webhooks/{endpointId}/test;
 * it must print the verified event and answer 2xx, and refuse a forged request. Every curl command of the
 * quickstart must name an operation that exists, so a renamed route cannot leave the guide behind.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as getOne } from "@/app/api/v1/webhooks/[endpointId]/route";
import { POST as sendTest } from "@/app/api/v1/webhooks/[endpointId]/test/route";
import { POST as create } from "@/app/api/v1/webhooks/route";
import { resetEnvCache } from "@/server/env";
import { allOperations } from "@/server/http/operations";
import { compileRouteTable, matchRoute } from "@/server/http/route-table";
import { useTestDb } from "@/server/test/db";
import { createTestKey, createTestOrg } from "@/server/test/factories";
import { callJson } from "@/server/test/http";
import { deliverDueWebhooks } from "./delivery/deliver-due-webhooks";

const t = useTestDb();
const doc = readFileSync(path.resolve("docs/webhooks.md"), "utf8");
const quickstart = doc.slice(doc.indexOf("## Quickstart"), doc.indexOf("## Reference"));
let dir: string;
let receiver: ChildProcess | undefined;
let output = "";

function snippet(name: string): string {
  const found = new RegExp("```js\\n(// " + name.replace(".", "\\.") + "[\\s\\S]*?)```").exec(doc)?.[1];
  if (!found) throw new Error(`docs/webhooks.md lost its ${name} snippet`);
  return found;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Resolves once the receiver's output contains `text` (its own log lines are the observable behaviour). */
async function outputContains(text: string, timeoutMs = 10_000): Promise<void> {
  const started = performance.now();
  while (!output.includes(text)) {
    if (performance.now() - started > timeoutMs) throw new Error(`receiver never printed "${text}"; it printed:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

beforeAll(() => {
  process.env.WEBHOOK_ALLOW_PRIVATE_TARGETS = "true";
  resetEnvCache();
  dir = mkdtempSync(path.join(os.tmpdir(), "foliosign-quickstart-"));
  writeFileSync(path.join(dir, "verify-foliosign.mjs"), snippet("verify-foliosign.mjs"));
  writeFileSync(path.join(dir, "foliosign-receiver.mjs"), snippet("foliosign-receiver.mjs"));
});
afterAll(() => {
  receiver?.kill();
  rmSync(dir, { recursive: true, force: true });
  process.env.WEBHOOK_ALLOW_PRIVATE_TARGETS = "false";
  resetEnvCache();
});

describe("docs/webhooks.md quickstart", () => {
  it("its receiver verifies and prints a test event sent through the API, and refuses a forged one", async () => {
    const org = await createTestOrg(t.db);
    const key = (await createTestKey(t.db, org)).value;
    const port = await freePort();
    const created = await callJson<{ data: { id: string; secret: string } }>(create, { key, body: { url: `http://127.0.0.1:${port}/` } });
    expect(created.status).toBe(201);
    const { id, secret } = created.body.data;

    const child = spawn(process.execPath, ["foliosign-receiver.mjs"], {
      cwd: dir,
      env: { ...process.env, PORT: String(port), FOLIOSIGN_WEBHOOK_SECRET: secret },
    });
    receiver = child;
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString("utf8")));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString("utf8")));
    await outputContains(`listening on port ${port}`);

    const sent = await callJson<{ data: { deliveryId: string } }>(sendTest, { key, params: { endpointId: id }, body: { event: "PACKAGE_SENT" } });
    expect(sent.status).toBe(201);
    await deliverDueWebhooks(t.db);
    await outputContains(`verified PACKAGE_SENT (test) delivery ${sent.body.data.deliveryId}`);

    const log = await callJson<{ data: { deliveries: { status: string; responseStatus: number | null }[] } }>(getOne, { key, params: { endpointId: id } });
    expect(log.body.data.deliveries).toEqual([expect.objectContaining({ status: "DELIVERED", responseStatus: 204 })]);

    const forged = await fetch(`http://127.0.0.1:${port}/`, {
      method: "POST",
      headers: { "x-foliosign-timestamp": String(Math.floor(Date.now() / 1000)), "x-foliosign-signature": `v1=${"0".repeat(64)}` },
      body: '{"event":"PACKAGE_VOIDED"}',
    });
    expect(forged.status).toBe(401);
    await outputContains("rejected: bad signature");
    expect(output).not.toContain("verified PACKAGE_VOIDED");
  });

  it("names only operations that exist in its curl commands", () => {
    const table = compileRouteTable(allOperations);
    const commands = [...quickstart.matchAll(/curl -s (?:-X (\w+) )?"\$FOLIOSIGN_URL([^"]+)"/g)];
    expect(commands.length).toBeGreaterThanOrEqual(4);
    for (const [, method = "GET", urlPath = ""] of commands) {
      const concrete = urlPath.replace("whep_…", "whep_quickstart");
      expect(matchRoute(table, concrete, method), `${method} ${urlPath}`).toEqual({ kind: "ok" });
    }
  });
});
