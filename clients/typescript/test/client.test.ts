/**
 * The TypeScript client against a real instance: the API's route handlers behind the server's own HTTP front on
 * 127.0.0.1 (server/test/api-server.ts), the test database (PGlite, or PostgreSQL with DATABASE_URL), and a
 * loopback receiver for webhooks. The common flow (from template → send → signing URL), downloads of a sealed
 * package, the API's errors as FoliosignError, and verifyWebhook on real deliveries.
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import http from "node:http";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { makePdf } from "@/server/domain/documents/test-support/fixtures";
import { createActiveTemplate } from "@/server/domain/packages/test-support/fixtures";
import { resetSigningIdentity } from "@/server/domain/sealing/signing-identity";
import { sealDuePackages } from "@/server/domain/sealing/seal-due-packages";
import { deliverDueWebhooks } from "@/server/domain/webhooks/delivery/deliver-due-webhooks";
import { resetEnvCache } from "@/server/env";
import { startApiServer, type TApiServer } from "@/server/test/api-server";
import { useTestDb } from "@/server/test/db";
import { createTestKey, createTestOrg } from "@/server/test/factories";
import { TWO_RECIPIENTS } from "@/server/test/package-from-template";
import { signedPackage } from "@/server/test/signed-package";
import { createFoliosignClient, FoliosignError, verifyWebhook, WebhookVerificationError, type TWebhookVerificationFailure } from "../src";

const t = useTestDb();
let server: TApiServer;

type TDelivery = { headers: http.IncomingHttpHeaders; body: Buffer };
let receiver: http.Server;
let receiverUrl: string;
const received: TDelivery[] = [];

beforeAll(async () => {
  process.env.WEBHOOK_ALLOW_PRIVATE_TARGETS = "true";
  resetEnvCache();
  server = await startApiServer();
  receiver = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks) });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/hook`;
});
afterAll(async () => {
  await server.close();
  await new Promise((resolve) => receiver.close(resolve));
  process.env.WEBHOOK_ALLOW_PRIVATE_TARGETS = "false";
  resetEnvCache();
});
beforeEach(() => {
  received.length = 0;
  // Each test empties the database, signing_keys included: the sealing identity is made again per test.
  resetSigningIdentity();
});

async function workspace() {
  const org = await createTestOrg(t.db);
  const key = (await createTestKey(t.db, org)).value;
  const template = await createActiveTemplate(t.db, org);
  return { key, client: createFoliosignClient({ baseUrl: server.baseUrl, apiKey: key }), templateId: template.templateId };
}

/** What the call threw, which must be a FoliosignError. */
async function apiError(call: Promise<unknown>): Promise<FoliosignError> {
  const err = await call.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(FoliosignError);
  return err as FoliosignError;
}

function verifyFailure(run: () => unknown): TWebhookVerificationFailure {
  try {
    run();
  } catch (err) {
    expect(err).toBeInstanceOf(WebhookVerificationError);
    return (err as WebhookVerificationError).reason;
  }
  throw new Error("verifyWebhook accepted the delivery");
}

describe("the common flow over HTTP", () => {
  it("creates a package from a template, sends it and gets a signing URL for a recipient", async () => {
    const { client, templateId } = await workspace();
    const draft = await client.createFromTemplate({ templateId, title: "Lease 4B", recipients: TWO_RECIPIENTS }, { idempotencyKey: "lease-4b" });
    expect(draft).toMatchObject({ title: "Lease 4B", status: "DRAFT", templateId });
    expect(draft.recipientSessions.map((s) => s.email)).toEqual(["tina@example.com", "lars@example.com"]);
    // The same Idempotency-Key and body answer the same package, not a second one.
    expect((await client.createFromTemplate({ templateId, title: "Lease 4B", recipients: TWO_RECIPIENTS }, { idempotencyKey: "lease-4b" })).id).toBe(draft.id);

    const sent = await client.send(draft.id);
    expect(sent.status).toBe("IN_PROGRESS");
    const session = sent.recipientSessions[0]!;
    const link = await client.signingUrl(draft.id, { sessionId: session.id });
    expect(link.url).toMatch(/^http:\/\/localhost:3000\/sign\/[A-Za-z0-9_-]+$/);
    expect(Date.parse(link.expiresAt)).toBeGreaterThan(Date.now());
    expect((await client.getPackage(draft.id)).status).toBe("IN_PROGRESS");
  });

  it("downloads the sealed PDF and the zip of a completed package; before completion the download is a 409", async () => {
    const { client, templateId } = await workspace();
    const draft = await client.createFromTemplate({ templateId, title: "Not yet", recipients: TWO_RECIPIENTS });
    const early = await apiError(client.download(draft.id));
    expect([early.status, early.error]).toEqual([409, "The package is not completed yet"]);

    const { key, pkgId } = await signedPackage(t.db);
    expect(await sealDuePackages(t.db)).toEqual([{ packageId: pkgId, outcome: "sealed" }]);
    const owner = createFoliosignClient({ baseUrl: server.baseUrl, apiKey: key });
    expect((await owner.getPackage(pkgId)).status).toBe("COMPLETED");
    const pdf = await owner.download(pkgId);
    expect(Buffer.from(pdf.subarray(0, 5)).toString("latin1")).toBe("%PDF-");
    const zip = await owner.downloadZip(pkgId);
    expect(Buffer.from(zip.subarray(0, 4))).toEqual(Buffer.from([0x50, 0x4b, 0x03, 0x04]));
  });
});

/** A client whose requests and answers the test can read (the helpers return only `data`). */
function recordingClient(key: string) {
  const exchanges: { request: Request; response: Response }[] = [];
  const client = createFoliosignClient({
    baseUrl: server.baseUrl,
    apiKey: key,
    fetch: async (request) => {
      const response = await fetch(request.clone());
      exchanges.push({ request, response });
      return response;
    },
  });
  return { client, exchanges };
}

/*
 * Regression (integrator audit): the client had no way to send a document's bytes (the upload body was typed
 * `string`, and openapi-fetch JSON-encodes any body), and `send` took no Idempotency-Key. `upload()` PUTs the
 * bytes unchanged to the upload URL's path on this client's instance, with a Content-Type and no API key;
 * `send(id, body, { idempotencyKey })` replays like createFromTemplate.
 */
describe("uploads and idempotent sends", () => {
  it("creates a blank package (only title and recipients), adds a document (no contentType) and uploads its bytes", async () => {
    const { key } = await workspace();
    const { client, exchanges } = recordingClient(key);
    const created = await client.api.POST("/api/v1/packages", { body: { title: "Blank lease", recipients: [{ email: "tina@example.com" }] } });
    expect(created.response.status).toBe(201);
    const pkg = created.data!.data;
    expect(pkg.sequential).toBe(true);
    const pdf = await makePdf(["a4", "letter"]);
    const added = await client.api.POST("/api/v1/packages/{packageId}/documents", {
      params: { path: { packageId: pkg.id } },
      body: { name: "lease.pdf", fileSize: pdf.length },
    });
    expect(added.response.status).toBe(201);
    const { document } = added.data!.data;
    // null only for a copy of a library document
    const uploadUrl = added.data!.data.uploadUrl!;
    expect([document.contentType, document.uploadState]).toEqual(["application/pdf", "AWAITING_UPLOAD"]);

    const uploaded = await client.upload(uploadUrl, pdf, "application/pdf");
    expect(uploaded).toMatchObject({ id: document.id, uploadState: "UPLOADED", pageCount: 2, sha256: createHash("sha256").update(pdf).digest("hex") });
    const put = exchanges.at(-1)!.request;
    expect([put.method, new URL(put.url).pathname, put.headers.get("content-type"), put.headers.get("authorization")]).toEqual([
      "PUT",
      new URL(uploadUrl).pathname,
      "application/pdf",
      null,
    ]);
    // The bytes themselves went over the wire, not their JSON.
    expect(Buffer.from(await put.arrayBuffer()).equals(pdf)).toBe(true);

    // The URL is single-use: a second PUT is the API's 410 as a FoliosignError.
    const again = await apiError(client.upload(uploadUrl, pdf));
    expect([again.status, again.error]).toEqual([410, expect.stringMatching(/\S/)]);
    expect(exchanges.at(-1)!.request.headers.get("content-type")).toBe("application/octet-stream");
    await expect(client.upload("https://sign.example.com/api/v1/packages", pdf)).rejects.toThrow(TypeError);
  });

  it("uploads a Blob with its own type to a template document's upload URL", async () => {
    const { key } = await workspace();
    const { client, exchanges } = recordingClient(key);
    const template = await client.api.POST("/api/v1/templates", { body: { name: "NDA" } });
    expect(template.response.status).toBe(201);
    const pdf = await makePdf();
    const added = await client.api.POST("/api/v1/templates/{templateId}/documents", {
      params: { path: { templateId: template.data!.data.id } },
      body: { name: "nda.pdf", fileSize: pdf.length },
    });
    expect(added.response.status).toBe(201);
    const uploaded = await client.upload(added.data!.data.uploadUrl!, new Blob([new Uint8Array(pdf)], { type: "application/pdf" }));
    expect([uploaded.uploadState, uploaded.pageCount]).toEqual(["UPLOADED", 1]);
    expect(exchanges.at(-1)!.request.headers.get("content-type")).toBe("application/pdf");
  });

  it("send(id, body, { idempotencyKey }) sends once: the same key answers the stored answer (Idempotent-Replayed)", async () => {
    const { key, templateId } = await workspace();
    const { client, exchanges } = recordingClient(key);
    const draft = await client.createFromTemplate({ templateId, title: "Lease", recipients: TWO_RECIPIENTS });
    const first = await client.send(draft.id, {}, { idempotencyKey: "send-lease-1" });
    expect(first.status).toBe("IN_PROGRESS");
    const firstExchange = exchanges.at(-1)!;
    expect(firstExchange.request.headers.get("idempotency-key")).toBe("send-lease-1");
    expect(firstExchange.response.headers.get("idempotent-replayed")).toBeNull();

    // Without the key this would be a 400 (only a DRAFT can be sent); with it, the first answer again.
    const replay = await client.send(draft.id, {}, { idempotencyKey: "send-lease-1" });
    expect(exchanges.at(-1)!.response.headers.get("idempotent-replayed")).toBe("true");
    expect(replay).toEqual(first);
    const unkeyed = await apiError(client.send(draft.id));
    expect(unkeyed.status).toBe(400);
    expect(exchanges.at(-1)!.request.headers.get("idempotency-key")).toBeNull();
  });
});

describe("the README's quickstart", () => {
  it("is examples/send-lease.ts word for word, which sends a package and prints its signing link", async () => {
    const example = readFileSync("clients/typescript/examples/send-lease.ts", "utf8");
    expect(readFileSync("README.md", "utf8")).toContain("```ts\n" + example + "```");
    const { key, templateId } = await workspace();
    Object.assign(process.env, { FOLIOSIGN_URL: server.baseUrl, FOLIOSIGN_KEY: key, TEMPLATE_ID: templateId });
    const log = vi.spyOn(console, "log").mockImplementation(() => {});
    try {
      await import("../examples/send-lease");
      expect(log.mock.calls).toEqual([[expect.stringMatching(/^pkg_\w+ is IN_PROGRESS; Tina signs at http:\/\/localhost:3000\/sign\/[\w-]+$/)]]);
    } finally {
      log.mockRestore();
    }
  });
});

describe("errors", () => {
  it("surfaces the API's error body as a FoliosignError: 422 with details by path, 404, 401", async () => {
    const { client, templateId } = await workspace();
    const invalid = await apiError(
      client.createFromTemplate({ templateId, title: "Lease", recipients: [{ email: "not-an-email", name: "Tina", roleIndex: 0 }] }),
    );
    expect(invalid.status).toBe(422);
    expect(invalid.details).toEqual({ "recipients.0.email": ["Enter a valid email address"] });
    expect(invalid.message).toBe("422 Validation failed (recipients.0.email: Enter a valid email address)");
    expect(invalid.requestId).toMatch(/\S/);

    const draft = await client.createFromTemplate({ templateId, title: "Lease", recipients: TWO_RECIPIENTS });
    const sent = await client.send(draft.id);
    const unlisted = await apiError(client.signingUrl(draft.id, { sessionId: sent.recipientSessions[0]!.id, embed: { origin: "https://app.example.com" } }));
    expect([unlisted.status, unlisted.details]).toEqual([422, { "embed.origin": ["Not one of this workspace's embed origins (PUT /settings/embed-origins)"] }]);

    const missing = await apiError(client.getPackage("pkg_missing"));
    expect([missing.status, missing.error]).toEqual([404, "Package not found"]);
    expect(missing.details).toBeUndefined();

    const stranger = createFoliosignClient({ baseUrl: server.baseUrl, apiKey: "fsk_not_a_key" });
    const unauthorised = await apiError(stranger.getPackage("pkg_missing"));
    expect([unauthorised.status, unauthorised.error, unauthorised.message]).toEqual([401, "Unauthorized", "401 Unauthorized"]);
  });

  it("names the status when the body is not the API's (a proxy's page), and a 429's Retry-After", async () => {
    const proxy = createFoliosignClient({
      baseUrl: server.baseUrl,
      apiKey: "fsk_any",
      fetch: async () => new Response("<html>Bad gateway</html>", { status: 502, headers: { "content-type": "text/html" } }),
    });
    const gateway = await apiError(proxy.getPackage("pkg_any"));
    expect([gateway.status, gateway.error, gateway.details, gateway.retryAfterSeconds]).toEqual([502, "HTTP 502", undefined, undefined]);

    const limited = createFoliosignClient({
      baseUrl: server.baseUrl,
      apiKey: "fsk_any",
      fetch: async () => Response.json({ error: "Rate limit exceeded" }, { status: 429, headers: { "retry-after": "17", "x-request-id": "req_1" } }),
    });
    const tooMany = await apiError(limited.send("pkg_any"));
    expect([tooMany.status, tooMany.error, tooMany.retryAfterSeconds, tooMany.requestId]).toEqual([429, "Rate limit exceeded", 17, "req_1"]);
  });
});

describe("verifyWebhook on real deliveries", () => {
  it("accepts a delivery as received, and refuses a tampered body, a wrong secret and an old timestamp", async () => {
    const { client, templateId } = await workspace();
    const endpoint = await client.api.POST("/api/v1/webhooks", { body: { url: receiverUrl, events: ["PACKAGE_SENT"] } });
    expect(endpoint.response.status).toBe(201);
    const secret = endpoint.data!.data.secret;
    // Not ASCII: the digest is over the body's UTF-8 bytes.
    const draft = await client.createFromTemplate({ templateId, title: "Lease 4B — Zürich", recipients: TWO_RECIPIENTS });
    await client.send(draft.id);
    await deliverDueWebhooks(t.db);
    expect(received).toHaveLength(1);
    const { headers, body } = received[0]!;

    const event = verifyWebhook(secret, headers, body);
    expect(event.event).toBe("PACKAGE_SENT");
    expect(event.event === "PACKAGE_SENT" && event.data.packageId).toBe(draft.id);
    // A fetch Headers and the body as text verify the same way.
    const fetchHeaders = new Headers(Object.entries(headers).map(([name, value]): [string, string] => [name, String(value)]));
    expect(verifyWebhook(secret, fetchHeaders, body.toString("utf8"))).toEqual(event);

    const tampered = Buffer.from(body.toString("utf8").replace("Lease 4B", "Lease 4C"));
    expect(verifyFailure(() => verifyWebhook(secret, headers, tampered))).toBe("no_matching_signature");
    expect(verifyFailure(() => verifyWebhook(`${secret.slice(0, -1)}x`, headers, body))).toBe("no_matching_signature");
    const sentAt = new Date(Number(headers["x-foliosign-timestamp"]) * 1000);
    expect(verifyFailure(() => verifyWebhook(secret, headers, body, { now: new Date(sentAt.getTime() + 301_000) }))).toBe("timestamp_out_of_tolerance");
    expect(verifyWebhook(secret, headers, body, { now: new Date(sentAt.getTime() + 299_000) }).event).toBe("PACKAGE_SENT");
    expect(verifyFailure(() => verifyWebhook(secret, { ...headers, "x-foliosign-signature": undefined }, body))).toBe("missing_headers");
  });

  it("during a rotation accepts either secret (two signature entries)", async () => {
    const { client } = await workspace();
    const created = await client.api.POST("/api/v1/webhooks", { body: { url: receiverUrl } });
    const endpointId = created.data!.data.id;
    const previous = created.data!.data.secret;
    const rotated = await client.api.POST("/api/v1/webhooks/{endpointId}/rotate-secret", { params: { path: { endpointId } } });
    const current = rotated.data!.data.secret;
    expect(current).not.toBe(previous);
    const test = await client.api.POST("/api/v1/webhooks/{endpointId}/test", { params: { path: { endpointId } }, body: { event: "SESSION_SENT" } });
    expect(test.response.status).toBe(201);
    await deliverDueWebhooks(t.db);
    expect(received).toHaveLength(1);
    const { headers, body } = received[0]!;
    expect(String(headers["x-foliosign-signature"]).split(",")).toHaveLength(2);
    for (const secret of [current, previous, ["whsec_unrelated", current]]) {
      const event = verifyWebhook(secret, headers, body);
      expect([event.event, event.test]).toEqual(["SESSION_SENT", true]);
    }
  });
});
