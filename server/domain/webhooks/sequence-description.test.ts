/**
 * The OpenAPI document and the webhooks guide say the same about `sequence` (issue 25, point 6): a counter per
 * package, not per endpoint, so gaps are normal for an endpoint subscribed to some events; a gap only means
 * "re-read the package". The old schema text ("a gap means an event is still on its way") contradicted the
 * guide; this pins the claims both must make.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { buildOpenApiDocument } from "@/server/http/openapi";

const CLAIMS = [
  "per package, not per endpoint",
  "subscribed to a subset of the events",
  "re-read the package with `GET /api/v1/packages/{packageId}`",
  "never reused",
  "Absent on samples sent with",
];

describe("the sequence field's description", () => {
  it("makes the guide's claims in every webhook payload schema, and the guide makes them too", () => {
    const schemas = (buildOpenApiDocument().components?.schemas ?? {}) as Record<string, { properties?: Record<string, { description?: string }> }>;
    const payloads = Object.entries(schemas).filter(([name]) => name.startsWith("WebhookPayload_"));
    expect(payloads.length).toBe(15);
    for (const [name, schema] of payloads) {
      const described = schema.properties?.sequence?.description ?? "";
      for (const claim of CLAIMS) expect(described, `${name}: ${claim}`).toContain(claim);
      expect(described).not.toMatch(/still on its way/);
    }
    const guide = readFileSync(path.join(process.cwd(), "docs/webhooks.md"), "utf8");
    const row = guide.split("\n").find((line) => line.startsWith("| `sequence` |")) ?? "";
    for (const claim of CLAIMS) expect(row.replace(/\*\*/g, ""), claim).toContain(claim);
  });
});
