/**
 * The pipeline's promises that no other test reaches: an unexpected error answers 500 `Internal error` with
 * the request id in `X-Request-Id` and in the log, never a stack; one JSON log line per request with method,
 * path, status, duration and key id — and never the key itself, not even for a refused key; a page past the
 * end of a list is an empty array with the real total.
 */
import { describe, expect, it } from "vitest";
import { GET as getAccount } from "@/app/api/v1/account/route";
import { GET as listWebhooks } from "@/app/api/v1/webhooks/route";
import { webhookEndpoints } from "@/server/db/schema";
import { encryptSecret } from "@/server/lib/crypto";
import { newId } from "@/server/lib/ids";
import { useCapturedLog } from "@/server/test/captured-log";
import { useTestDb } from "@/server/test/db";
import { createTestKey, createTestOrg } from "@/server/test/factories";
import { callJson, callRoute } from "@/server/test/http";
import { apiRoute } from "./api-route";
import { defineOperation } from "@/server/domain/operation";
import { z } from "@/server/lib/zod";

const t = useTestDb();
const log = useCapturedLog();
const records = () => log().records();

const boom = apiRoute(
  defineOperation({ operationId: "boom", method: "GET", path: "/api/v1/boom", summary: "throws", tag: "Test", response: z.object({}) }),
  async () => {
    throw new Error("database exploded at /srv/secret/path");
  },
);

describe("unexpected errors", () => {
  it("answer 500 Internal error with the request id, logged with the error, no internals in the body", async () => {
    const org = await createTestOrg(t.db);
    const key = await createTestKey(t.db, org);
    const res = await callRoute(boom, { key: key.value });
    expect(res.status).toBe(500);
    const text = await res.text();
    expect(JSON.parse(text)).toEqual({ error: "Internal error" });
    expect(text).not.toContain("exploded");
    const requestId = res.headers.get("x-request-id");
    expect(requestId).toMatch(/^[0-9a-f-]{36}$/);
    // One line for the request: its request line, at error level, with the operation and the error.
    const logged = records();
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatchObject({ level: 50, msg: "api request", requestId, operationId: "boom", status: 500 });
    expect(JSON.stringify(logged[0])).toContain("exploded");
  });
});

describe("request log", () => {
  it("writes one line per request with method, path, status, duration and key id — never the key", async () => {
    const org = await createTestOrg(t.db);
    const key = await createTestKey(t.db, org);
    await callRoute(getAccount, { key: key.value });
    await callRoute(getAccount, { key: `${key.value}x` });
    const requests = records().filter((r) => r.msg === "api request");
    expect(requests).toHaveLength(2);
    expect(requests[0]).toMatchObject({ method: "GET", path: "/api/v1/account", status: 200, keyId: key.id });
    expect(typeof requests[0]!.durationMs).toBe("number");
    expect(requests[1]).toMatchObject({ status: 401 });
    expect(requests[1]!.keyId).toBeUndefined();
    expect(log().lines.join("\n")).not.toContain(key.value.slice(4));
  });
});

describe("pagination", () => {
  it("answers a page past the end with an empty array and the same totalCount", async () => {
    const org = await createTestOrg(t.db);
    const key = await createTestKey(t.db, org);
    for (let i = 0; i < 3; i++) {
      await t.db.insert(webhookEndpoints).values({
        id: newId("whe"),
        organisationId: org.organisationId,
        workspaceId: org.workspaceId,
        url: `https://hooks.example.com/${i}`,
        events: ["PACKAGE_SENT"],
        secretEncrypted: encryptSecret("whsec_test"),
      });
    }
    const last = await callJson<{ data: { webhooks: unknown[]; totalCount: number } }>(listWebhooks, { key: key.value, query: { page: 2, pageSize: 2 } });
    expect(last.body.data).toMatchObject({ totalCount: 3, page: 2, pageSize: 2 });
    expect(last.body.data.webhooks).toHaveLength(1);
    const past = await callJson<{ data: { webhooks: unknown[]; totalCount: number } }>(listWebhooks, { key: key.value, query: { page: 9, pageSize: 2 } });
    expect(past.status).toBe(200);
    expect(past.body.data).toEqual({ webhooks: [], totalCount: 3, page: 9, pageSize: 2 });
  });
});
