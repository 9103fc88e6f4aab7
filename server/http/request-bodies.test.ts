/**
 * Regression (integrator audit, items 1 and 2): what a request body may be when an operation takes little or
 * no input.
 *
 * 1. A POST (or DELETE) that takes no input accepted ANY body, even one that is not JSON: `POST …/hold` with
 *    `{bad` answered 200 and held the package, and `POST …/rotate-secret` with `{"secret":"whsec_mine"}`
 *    answered 200 as if the client's secret had been taken. The OpenAPI `NoBody` says: nothing, or `{}`. So
 *    nothing, an empty body and `{}` are accepted; a body that is not JSON is 400 `Invalid JSON body`; JSON that
 *    is not an empty object is 422 naming the path (an unknown key by its own name); and a refused request
 *    changes nothing. Both doors (/api/v1 and the app's /api/app) behave alike.
 * 2. send, void and remind have only optional fields but refused a request with no body at all (400):
 *    `curl -X POST …/send -H "Authorization: Bearer …"` must send. An absent or empty body is `{}` for an
 *    operation whose body schema accepts `{}`, and the OpenAPI document says `requestBody.required: false` for
 *    exactly those (derived from the schema).
 */
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST as createFromTemplateRoute } from "@/app/api/v1/packages/from-template/route";
import { GET as getPackageRoute, DELETE as deletePackageRoute } from "@/app/api/v1/packages/[packageId]/route";
import { POST as holdRoute } from "@/app/api/v1/packages/[packageId]/hold/route";
import { POST as sendRoute } from "@/app/api/v1/packages/[packageId]/send/route";
import { POST as voidRoute } from "@/app/api/v1/packages/[packageId]/void/route";
import { POST as remindRoute } from "@/app/api/v1/packages/[packageId]/remind/route";
import { POST as appHoldRoute } from "@/app/api/app/packages/[packageId]/hold/route";
import { POST as rotateRoute } from "@/app/api/v1/webhooks/[endpointId]/rotate-secret/route";
import { setSessionLookup } from "@/server/auth/app-route";
import { packages, webhookEndpoints } from "@/server/db/schema";
import { createActiveTemplate } from "@/server/domain/packages/test-support/fixtures";
import { createEndpoint } from "@/server/domain/webhooks/endpoints/create-endpoint";
import { setResolver } from "@/server/domain/webhooks/delivery/resolver";
import { buildOpenApiDocument } from "@/server/http/openapi";
import { BODY_CUT_OFF } from "@/server/http/client-body";
import { publicOperations } from "@/server/http/operations";
import { workspaceActor } from "@/server/test/actors";
import { useTestDb } from "@/server/test/db";
import { createTestKey, createTestOrg } from "@/server/test/factories";
import { callJson, callRoute } from "@/server/test/http";

const t = useTestDb();

beforeAll(() => setResolver(async () => [{ address: "93.184.215.14", family: 4 }]));
afterAll(() => {
  setResolver(undefined);
  setSessionLookup(undefined);
});

const recipients = [
  { email: "tenant@example.com", roleIndex: 0 },
  { email: "landlord@example.com", roleIndex: 1 },
];

async function world() {
  const org = await createTestOrg(t.db);
  const key = (await createTestKey(t.db, org)).value;
  const tpl = await createActiveTemplate(t.db, org);
  const create = async (status?: "sent") => {
    const res = await callJson<{ data: { id: string } }>(createFromTemplateRoute, {
      key,
      body: { templateId: tpl.templateId, title: "Lease", recipients, ...(status ? { status } : {}) },
    });
    expect(res.status).toBe(201);
    return res.body.data.id;
  };
  return { org, key, create };
}

async function statusOf(packageId: string) {
  const [row] = await t.db.select({ status: packages.status }).from(packages).where(eq(packages.id, packageId));
  return row?.status;
}

describe("an operation that takes no input", () => {
  it("refuses a body that is not JSON (400) or not an empty object (422 naming the path), and changes nothing", async () => {
    const w = await world();
    const packageId = await w.create("sent");
    const params = { packageId };

    const broken = await callJson(holdRoute, { key: w.key, params, rawBody: "{bad" });
    expect(broken.status).toBe(400);
    expect(broken.body).toEqual({ error: "Invalid JSON body" });

    const unknown = await callJson(holdRoute, { key: w.key, params, body: { reason: "x", note: 1 } });
    expect(unknown.status).toBe(422);
    expect(unknown.body).toEqual({ error: "Validation failed", details: { reason: ["Unknown field"], note: ["Unknown field"] } });

    // Keys that name the prototype are named like any other unknown key (they once reached it: a 500).
    const proto = await callJson(holdRoute, { key: w.key, params, rawBody: '{"__proto__":{"polluted":true},"constructor":1}' });
    expect(proto.status).toBe(422);
    expect(proto.body).toEqual({
      error: "Validation failed",
      details: JSON.parse('{"__proto__":["Unknown field"],"constructor":["Unknown field"]}') as unknown,
    });
    expect(Object.keys((proto.body as { details: object }).details)).toEqual(["__proto__", "constructor"]);

    for (const notAnObject of [[], "x", 1, null]) {
      const res = await callJson(holdRoute, { key: w.key, params, body: notAnObject });
      expect(res.status, JSON.stringify(notAnObject)).toBe(422);
      expect(Object.keys((res.body as { details: object }).details)).toEqual(["body"]);
    }
    expect(await statusOf(packageId)).toBe("IN_PROGRESS");
  });

  it("answers 400, not 500, to a body cut off by a client that went away, and changes nothing", async () => {
    const w = await world();
    const packageId = await w.create("sent");
    let sent = false;
    const cutOff = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (!sent) {
          sent = true;
          controller.enqueue(new TextEncoder().encode('{"'));
        } else controller.error(Object.assign(new Error("aborted"), { code: "ECONNRESET" }));
      },
    });
    const res = await callJson(holdRoute, { key: w.key, params: { packageId }, bodyStream: cutOff });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: BODY_CUT_OFF });
    expect(await statusOf(packageId)).toBe("IN_PROGRESS");
  });

  it("accepts no body, an empty body and {}", async () => {
    const w = await world();
    for (const body of [undefined, "", "{}", " { } "]) {
      const packageId = await w.create("sent");
      const res = await callJson(holdRoute, { key: w.key, params: { packageId }, rawBody: body });
      expect(res.status, JSON.stringify(body)).toBe(200);
      expect(await statusOf(packageId)).toBe("ON_HOLD");
    }
  });

  it("rotate-secret refuses a secret of the client's own (422 at secret) and keeps the secret", async () => {
    const w = await world();
    const endpoint = await createEndpoint(t.db, workspaceActor(w.org.organisationId, w.org.workspaceId), { url: "https://hooks.example.com/in" });
    const before = await t.db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, endpoint.id));
    const res = await callJson(rotateRoute, { key: w.key, params: { endpointId: endpoint.id }, body: { secret: "whsec_mine" } });
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ error: "Validation failed", details: { secret: ["Unknown field"] } });
    expect(await t.db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, endpoint.id))).toEqual(before);

    const rotated = await callJson<{ data: { secret: string } }>(rotateRoute, { key: w.key, params: { endpointId: endpoint.id } });
    expect(rotated.status).toBe(200);
    expect(rotated.body.data.secret).toMatch(/^whsec_/);
  });

  it("a DELETE without input checks its body the same way, and deletes nothing when refused", async () => {
    const w = await world();
    const packageId = await w.create();
    expect((await callJson(deletePackageRoute, { key: w.key, params: { packageId }, rawBody: "{bad" })).status).toBe(400);
    expect((await callJson(deletePackageRoute, { key: w.key, params: { packageId }, body: { force: true } })).status).toBe(422);
    expect((await callJson(getPackageRoute, { key: w.key, params: { packageId } })).status).toBe(200);
    expect((await callJson(deletePackageRoute, { key: w.key, params: { packageId }, body: {} })).status).toBe(200);
  });

  it("the app's door checks the same way", async () => {
    const w = await world();
    setSessionLookup(async () => ({ userId: w.org.userId, organisationId: w.org.organisationId }));
    const packageId = await w.create("sent");
    const broken = await callJson(appHoldRoute, { params: { packageId }, rawBody: "{bad" });
    expect(broken.status).toBe(400);
    expect(broken.body).toEqual({ error: "Invalid JSON body" });
    const unknown = await callJson(appHoldRoute, { params: { packageId }, body: { x: 1 } });
    expect(unknown.body).toEqual({ error: "Validation failed", details: { x: ["Unknown field"] } });
    expect(await statusOf(packageId)).toBe("IN_PROGRESS");
    expect((await callJson(appHoldRoute, { params: { packageId } })).status).toBe(200);
  });
});

describe("an operation whose body has no required field", () => {
  it("send, void and remind work with no body at all (curl -X POST with the key only)", async () => {
    const w = await world();
    const packageId = await w.create();
    const send = await callRoute(sendRoute, { key: w.key, params: { packageId } });
    expect(send.status).toBe(200);
    expect(await statusOf(packageId)).toBe("IN_PROGRESS");
    expect((await callRoute(remindRoute, { key: w.key, params: { packageId }, rawBody: "" })).status).toBe(200);
    expect((await callRoute(voidRoute, { key: w.key, params: { packageId } })).status).toBe(200);
    expect(await statusOf(packageId)).toBe("VOID");
  });

  it("still answers 400 for a body that is not JSON, and an operation with a required field still needs its body", async () => {
    const w = await world();
    const packageId = await w.create();
    expect((await callJson(sendRoute, { key: w.key, params: { packageId }, rawBody: "{bad" })).status).toBe(400);
    expect(await statusOf(packageId)).toBe("DRAFT");
    const empty = await callJson(createFromTemplateRoute, { key: w.key, rawBody: "" });
    expect(empty.status).toBe(400);
    expect(empty.body).toEqual({ error: "Invalid JSON body" });
  });

  it("the OpenAPI document marks exactly those request bodies optional", () => {
    const doc = buildOpenApiDocument() as unknown as { paths: Record<string, Record<string, { operationId: string; requestBody?: { required?: boolean } }>> };
    const required = new Map<string, boolean | undefined>();
    for (const item of Object.values(doc.paths)) for (const op of Object.values(item)) required.set(op.operationId, op.requestBody?.required);
    expect(required.get("sendPackage")).toBe(false);
    expect(required.get("voidPackage")).toBe(false);
    expect(required.get("remindPackage")).toBe(false);
    expect(required.get("holdPackage")).toBe(false);
    expect(required.get("createPackageFromTemplate")).toBe(true);
    expect(required.get("transferPackage")).toBe(true);
    for (const op of publicOperations) {
      if (!op.body) continue;
      expect(required.get(op.operationId), op.operationId).toBe(!op.body.safeParse({}).success);
    }
  });
});
