/**
 * Regression (integrator audit): the downloads that send an ETag (the merged PDF, the certificate) ignored
 * `If-None-Match`, so a client polling or caching them downloaded every byte again. A matching tag (one of a
 * list, `*`, or its weak form, as RFC 9110 §13.1.2 compares) is now 304 with no body and the same ETag, through
 * the real routes on a sealed package; a tag that does not match, and the zip (no ETag), still get the file.
 */
import { beforeEach, describe, expect, it } from "vitest";
import { GET as downloadRoute } from "@/app/api/v1/packages/[packageId]/download/route";
import { GET as zipRoute } from "@/app/api/v1/packages/[packageId]/download/zip/route";
import { GET as certificateRoute } from "@/app/api/v1/packages/[packageId]/certificate/route";
import { sealDuePackages } from "@/server/domain/sealing/seal-due-packages";
import { resetSigningIdentity } from "@/server/domain/sealing/signing-identity";
import { buildOpenApiDocument } from "@/server/http/openapi";
import { useTestDb } from "@/server/test/db";
import { callRoute } from "@/server/test/http";
import { signedPackage } from "@/server/test/signed-package";
import { ifNoneMatchMatches } from "./not-modified";

const t = useTestDb();
// Each test empties the database, signing_keys included: the sealing identity is made again per test.
beforeEach(() => resetSigningIdentity());

describe("ifNoneMatchMatches", () => {
  const etag = '"abc"';
  it("matches the tag, one of a list, its weak form and *; nothing else", () => {
    expect(ifNoneMatchMatches('"abc"', etag)).toBe(true);
    expect(ifNoneMatchMatches('"x", "abc"', etag)).toBe(true);
    expect(ifNoneMatchMatches('"x",W/"abc"', etag)).toBe(true);
    expect(ifNoneMatchMatches(" * ", etag)).toBe(true);
    expect(ifNoneMatchMatches('"abd"', etag)).toBe(false);
    expect(ifNoneMatchMatches('"ab"', etag)).toBe(false);
    expect(ifNoneMatchMatches("abc", etag)).toBe(false);
    expect(ifNoneMatchMatches("", etag)).toBe(false);
    // A comma belongs to an entity-tag's characters: the list is split by quotes, not by commas.
    expect(ifNoneMatchMatches('"a,b"', '"a,b"')).toBe(true);
    expect(ifNoneMatchMatches('"a,b"', '"a"')).toBe(false);
  });
});

describe("If-None-Match on the downloads", () => {
  it("answers 304 with the ETag and no body when a tag matches; the file otherwise; the zip has no ETag and ignores it", async () => {
    const { key, pkgId } = await signedPackage(t.db);
    expect(await sealDuePackages(t.db)).toEqual([{ packageId: pkgId, outcome: "sealed" }]);
    const params = { packageId: pkgId };

    for (const route of [downloadRoute, certificateRoute]) {
      const first = await callRoute(route, { key, params });
      expect(first.status).toBe(200);
      const etag = first.headers.get("etag")!;
      expect(etag).toMatch(/^"[0-9a-f]{64}"$/);
      const bytes = Buffer.from(await first.arrayBuffer());

      for (const condition of [etag, `"other", ${etag}`, `W/${etag}`, "*"]) {
        const again = await callRoute(route, { key, params, headers: { "if-none-match": condition } });
        expect([condition, again.status, again.headers.get("etag"), again.headers.get("content-type")]).toEqual([condition, 304, etag, null]);
        expect(again.headers.get("cache-control")).toBe("private, no-store");
        expect(again.headers.get("x-request-id")).toMatch(/\S/);
        expect(again.headers.get("x-ratelimit-limit")).toBe("120");
        expect((await again.arrayBuffer()).byteLength).toBe(0);
      }
      const changed = await callRoute(route, { key, params, headers: { "if-none-match": '"0000"' } });
      expect(changed.status).toBe(200);
      expect(Buffer.from(await changed.arrayBuffer()).equals(bytes)).toBe(true);
    }

    const zip = await callRoute(zipRoute, { key, params, headers: { "if-none-match": "*" } });
    expect([zip.status, zip.headers.get("etag")]).toEqual([200, null]);
    expect((await zip.arrayBuffer()).byteLength).toBeGreaterThan(0);
    // The door and the gates come first: without a key, a matching tag is still 401.
    expect((await callRoute(downloadRoute, { params, headers: { "if-none-match": "*" } })).status).toBe(401);
  });

  it("are documented: ETag on the 200, a 304, and the If-None-Match header, on the PDF downloads only", () => {
    type TOp = { parameters?: { name: string; in: string }[]; responses: Record<string, { headers?: Record<string, unknown> }> };
    const paths = buildOpenApiDocument().paths as Record<string, { get?: TOp }>;
    for (const path of ["/api/v1/packages/{packageId}/download", "/api/v1/packages/{packageId}/certificate"]) {
      const op = paths[path]!.get!;
      expect(op.responses["200"]!.headers).toHaveProperty("ETag");
      expect(op.responses["304"]!.headers).toHaveProperty("ETag");
      expect(op.parameters).toContainEqual(expect.objectContaining({ name: "If-None-Match", in: "header" }));
    }
    const zip = paths["/api/v1/packages/{packageId}/download/zip"]!.get!;
    expect(zip.responses["304"]).toBeUndefined();
    expect(zip.parameters?.map((p) => p.name)).not.toContain("If-None-Match");
  });
});
