/**
 * The reference shows real examples (issue 25, point 3): every operation of the served OpenAPI document has a
 * success example (JSON answers), a request example where it takes a body, example values for its path
 * parameters, and a curl sample. The examples are accepted by the very zod schemas the routes validate and shape
 * with, hold ids in our format with the prefix of what they name, real event names, and no `"string"`
 * placeholder anywhere.
 */
import { describe, expect, it } from "vitest";
import { GET as openApiRoute } from "@/app/api-reference/openapi.json/route";
import { EVENT_NAMES } from "@/server/domain/webhooks/events/event-catalogue";
import { ID_PATTERN } from "@/server/lib/ids";

const WEBHOOK_EVENTS_LIST: readonly string[] = EVENT_NAMES;
import { publicOperations } from "./operations";

type TMedia = { example?: unknown };
type TOp = {
  operationId: string;
  parameters?: { name: string; in: string; example?: unknown }[];
  requestBody?: { required?: boolean; content: Record<string, TMedia> };
  responses: Record<string, { content?: Record<string, TMedia> }>;
  "x-codeSamples"?: { lang: string; label: string; source: string }[];
};
type TDoc = { servers: { url: string }[]; paths: Record<string, Record<string, TOp>> };

async function served(): Promise<TDoc> {
  return (await (await openApiRoute()).json()) as TDoc;
}

/** Every [key, string value] pair in a JSON value, at any depth. */
function strings(value: unknown, key = ""): [string, string][] {
  if (typeof value === "string") return [[key, value]];
  if (Array.isArray(value)) return value.flatMap((v) => strings(v, key));
  if (value && typeof value === "object") return Object.entries(value).flatMap(([k, v]) => strings(v, k));
  return [];
}

const ID_PREFIXES: Record<string, string> = {
  packageId: "pkg",
  sessionId: "ses",
  templateId: "tpl",
  documentId: "doc",
  endpointId: "whep",
  fieldId: "tfld",
  eventId: "whe",
  ownerUserId: "usr",
  signingGroupId: "sgrp",
  libraryDocumentId: "libd",
};

function expectRealistic(label: string, example: unknown) {
  for (const [key, value] of strings(example)) {
    expect(value, `${label}: ${key} is a placeholder`).not.toBe("string");
    if ((key === "id" || /[a-z]Id$/.test(key)) && !["externalId", "assertionId"].includes(key)) {
      expect(value, `${label}: ${key}`).toMatch(ID_PATTERN);
      if (ID_PREFIXES[key]) expect(value.split("_")[0], `${label}: ${key}`).toBe(ID_PREFIXES[key]);
    }
    if (key === "event" || key === "events") expect(WEBHOOK_EVENTS_LIST, `${label}: ${key}`).toContain(value);
  }
}

describe("examples in the OpenAPI document", () => {
  it("every public operation has a success example its response schema accepts, realistic throughout", async () => {
    const doc = await served();
    for (const op of publicOperations) {
      const declared = doc.paths[op.path]?.[op.method.toLowerCase()];
      expect(declared, op.operationId).toBeDefined();
      if (op.binaryResponse) continue;
      const example = declared!.responses[String(op.successStatus ?? 200)]?.content?.["application/json"]?.example as { data?: unknown } | undefined;
      expect(example, `${op.operationId}: no success example`).toBeDefined();
      const parsed = op.response.safeParse(example!.data);
      expect(parsed.error?.issues ?? [], `${op.operationId}: the example does not fit the response schema`).toEqual([]);
      expectRealistic(op.operationId, example);
    }
  });

  it("every operation with a body has a request example its body schema accepts", async () => {
    const doc = await served();
    for (const op of publicOperations.filter((o) => o.body)) {
      const example = doc.paths[op.path]?.[op.method.toLowerCase()]?.requestBody?.content["application/json"]?.example;
      expect(example, `${op.operationId}: no request example`).toBeDefined();
      const parsed = op.body!.safeParse(example);
      expect(parsed.error?.issues ?? [], `${op.operationId}: the example does not fit the body schema`).toEqual([]);
      expectRealistic(op.operationId, example);
    }
  });

  it("path parameters carry example ids, and each operation a curl sample that calls it with them", async () => {
    const doc = await served();
    const server = doc.servers[0]!.url;
    let operations = 0;
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(item)) {
        operations += 1;
        const samples = op["x-codeSamples"] ?? [];
        const optionalBody =
          method === "post" && op.requestBody?.required === false && publicOperations.some((o) => o.operationId === op.operationId && o.body);
        expect(samples.map((s) => s.label)[0], op.operationId).toBe("curl");
        expect(samples.length, op.operationId).toBe(optionalBody ? 2 : 1);
        const curl = samples[0]!.source;
        let url = server + path;
        for (const p of (op.parameters ?? []).filter((p) => p.in === "path")) {
          expect(p.example, `${op.operationId}: ${p.name}`).toBeDefined();
          expectRealistic(op.operationId, { [p.name]: p.example });
          url = url.replace(`{${p.name}}`, String(p.example));
        }
        expect(curl.startsWith(`curl -X ${method.toUpperCase()} "${url}"`), `${op.operationId}: ${curl}`).toBe(true);
        if (path.startsWith("/api/v1/")) expect(curl).toContain(`-H "Authorization: Bearer $FOLIOSIGN_KEY"`);
        else expect(curl).not.toContain("Authorization");
        const body = op.requestBody?.content["application/json"]?.example;
        if (body !== undefined) expect(curl, op.operationId).toContain(`-d '${JSON.stringify(body).replace(/'/g, `'\\''`)}'`);
        if (optionalBody) {
          expect(samples[1]!.source.startsWith(`curl -X POST "${url}"`), op.operationId).toBe(true);
          expect(samples[1]!.source, op.operationId).not.toContain("-d ");
        }
      }
    }
    expect(operations).toBe(publicOperations.length + 1);
  });

  /*
   * Regression (integrator audit, item 2): sendPackage's only sample scheduled the send for 2030; sending now
   * takes no body at all, and the reference shows that call too.
   */
  it("sendPackage shows sending now, with no body, beside the scheduled send", async () => {
    const send = (await served()).paths["/api/v1/packages/{packageId}/send"]!.post!;
    expect(send.requestBody?.required).toBe(false);
    const [scheduled, now] = send["x-codeSamples"]!;
    expect(scheduled!.source).toContain('"sendAt"');
    expect(now!.label).toBe("curl (send now)");
    expect(now!.source).toBe(
      `curl -X POST "${(await served()).servers[0]!.url}/api/v1/packages/${send.parameters![0]!.example as string}/send" \\\n  -H "Authorization: Bearer $FOLIOSIGN_KEY"`,
    );
  });

  it("answers name real events: the test event's example and a webhook's subscriptions", async () => {
    const doc = await served();
    const created = doc.paths["/api/v1/webhooks"]!.post!.responses["201"]!.content!["application/json"]!.example as { data: { events: string[] } };
    expect(created.data.events.length).toBeGreaterThan(0);
    for (const event of created.data.events) expect(WEBHOOK_EVENTS_LIST).toContain(event);
  });
});
