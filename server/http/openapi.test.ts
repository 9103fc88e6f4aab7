/** The published OpenAPI document: version, security on every operation, operationIds, error responses. */
import { Validator } from "@seriousme/openapi-schema-validator";
import { describe, expect, it } from "vitest";
import { GET } from "@/app/api-reference/openapi.json/route";

type TDoc = {
  openapi: string;
  info: { version: string };
  servers: { url: string }[];
  components: { securitySchemes: Record<string, { type: string; scheme: string }> };
  paths: Record<string, Record<string, { operationId?: string; security?: unknown[]; requestBody?: unknown; responses: Record<string, unknown> }>>;
};

describe("GET /api-reference/openapi.json", () => {
  it("serves an OpenAPI 3.0.3 document, version 1.0.0, one server, bearer security on every operation", async () => {
    const res = await GET();
    expect(res.status).toBe(200);
    const doc = (await res.json()) as TDoc;
    expect(doc.openapi).toBe("3.0.3");
    expect(doc.info.version).toBe("1.0.0");
    expect(doc.servers).toHaveLength(1);
    const result = await new Validator().validate(doc as unknown as Parameters<Validator["validate"]>[0]);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(doc.components.securitySchemes.bearerAuth).toMatchObject({ type: "http", scheme: "bearer" });
    const schemas = (doc.components as unknown as { schemas: Record<string, unknown> }).schemas;
    for (const event of ["PACKAGE_SENT", "SESSION_CANCELLED"]) expect(schemas[`WebhookPayload_${event}`]).toBeDefined();
    const ops = Object.values(doc.paths).flatMap((item) => Object.values(item));
    expect(ops.length).toBeGreaterThan(0);
    for (const [path, item] of Object.entries(doc.paths)) {
      // The upload URL's token is its credential (openapi-upload.ts); every API operation takes the bearer key.
      for (const op of Object.values(item)) expect(op.security, path).toEqual(path.startsWith("/uploads/") ? [] : [{ bearerAuth: [] }]);
    }
    for (const op of ops.filter((o) => o.operationId !== "uploadDocument")) {
      expect(op.operationId).toBeTruthy();
      for (const status of ["401", "402", "403", "422", "429"]) expect(op.responses[status]).toBeDefined();
      // A JSON body can be malformed (400 Invalid JSON body) or too large (413). An optional `{}` (NoBody) is not read.
      if ((op.requestBody as { required?: boolean } | undefined)?.required)
        for (const status of ["400", "413"]) expect(op.responses[status], `${op.operationId} ${status}`).toBeDefined();
    }
    expect(doc.paths["/api/v1/webhooks"]?.post?.responses["413"]).toBeDefined();
  });
});

/*
 * Regression (integrator audit): the typed client is generated with `defaultNonNullable: false`
 * (scripts/client-types.ts), so a property with a `default` that is not in `required` is optional in the client.
 * Right for a request (the server fills it in), wrong for an answer, where it is always there. So a schema an
 * answer uses lists its defaulted properties in `required`; a schema shared by a request and an answer with a
 * defaulted property (reminders, sender questions) is two schemas (`PackageRemindersInput`, `PackageReminders`).
 */
describe("defaults in the document", () => {
  it("every property with a default that an answer can carry is required there; requests leave theirs optional", async () => {
    const doc = (await (await GET()).json()) as TDoc & { components: { schemas: Record<string, unknown> } };
    const schemas = doc.components.schemas;
    const optionalDefaults = (roots: unknown[]) => {
      const found: string[] = [];
      const seenRefs = new Set<string>();
      const walk = (node: unknown, where: string): void => {
        if (Array.isArray(node)) return node.forEach((n) => walk(n, where));
        if (typeof node !== "object" || node === null) return;
        const o = node as { $ref?: string; properties?: Record<string, { default?: unknown }>; required?: string[] };
        if (o.$ref) {
          const name = o.$ref.replace("#/components/schemas/", "");
          if (seenRefs.has(name)) return;
          seenRefs.add(name);
          return walk(schemas[name], name);
        }
        for (const [prop, schema] of Object.entries(o.properties ?? {}))
          if (schema.default !== undefined && !(o.required ?? []).includes(prop)) found.push(`${where}.${prop}`);
        for (const value of Object.values(o)) walk(value, where);
      };
      roots.forEach((root) => walk(root, "(inline)"));
      return found.sort();
    };
    const ops = Object.values(doc.paths).flatMap((item) => Object.values(item));
    expect(optionalDefaults(ops.map((op) => op.responses))).toEqual([]);
    // The other side: these requests let the server fill in the default, so the client may leave them out.
    expect(optionalDefaults(ops.map((op) => op.requestBody))).toEqual(
      expect.arrayContaining([
        "AddDocument.contentType",
        "CreatePackage.sequential",
        "CreateTemplateField.required",
        "PackageRemindersInput.max",
        "SenderQuestionInput.required",
      ]),
    );
  });
});
