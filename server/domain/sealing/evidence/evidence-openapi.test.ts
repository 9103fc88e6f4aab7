/**
 * The package's evidence is in the published contract (issue 20): GET /api/v1/packages/{packageId} answers a
 * Package whose `evidence` is the PackageEvidence schema — level (the four PAdES levels), timestampedAt,
 * timestampAuthority, upgradePending — generated from the zod schema, not written by hand.
 */
import { describe, expect, it } from "vitest";
import { GET } from "@/app/api-reference/openapi.json/route";

type TSchema = {
  type?: string;
  enum?: string[];
  properties?: Record<string, TSchema>;
  required?: string[];
  nullable?: boolean;
  $ref?: string;
  allOf?: TSchema[];
};

describe("the OpenAPI document", () => {
  it("declares Package.evidence as PackageEvidence { level, timestampedAt, timestampAuthority, upgradePending }", async () => {
    const doc = (await (await GET()).json()) as {
      components: { schemas: Record<string, TSchema> };
      paths: Record<string, Record<string, { responses: Record<string, { content?: Record<string, { schema: TSchema }> }> }>>;
    };
    const { schemas } = doc.components;
    const evidence = schemas.PackageEvidence!;
    expect(Object.keys(evidence.properties ?? {})).toEqual(["level", "timestampedAt", "timestampAuthority", "upgradePending"]);
    expect(evidence.required).toEqual(["level", "timestampedAt", "timestampAuthority", "upgradePending"]);
    expect(schemas.EvidenceLevel?.enum).toEqual(["B-B", "B-T", "B-LT", "B-LTA"]);
    expect(evidence.properties!.upgradePending!.type).toBe("boolean");
    expect(schemas.Package?.required).toContain("evidence");
    expect(JSON.stringify(schemas.Package?.properties?.evidence)).toContain("#/components/schemas/PackageEvidence");
    const get = doc.paths["/api/v1/packages/{packageId}"]!.get!;
    expect(JSON.stringify(get.responses["200"])).toContain("#/components/schemas/Package");
  });
});
