/**
 * Regression (integrator audit): the downloads that send an ETag (the merged PDF, the certificate) ignored
 * `If-None-Match`, so a client polling or caching them downloaded every byte again. A matching tag (one of a
 * list, `*`, or its weak form, as RFC 9110 §13.1.2 compares) is now 304 with no body and the same ETag, through
 * the real routes on a sealed package; a tag that does not match, and the zip (no ETag), still get the file.
 *
 * Regression (S3 storage): the 304 was made after the file had been opened, so with STORAGE=s3 every
 * conditional request still GOT the object from the bucket, only to drop it. Against a loopback S3 server that
 * logs its requests: a matching tag is answered from a HEAD alone (no GET of the object), a tag that does not
 * match still streams the file, and a file gone from the bucket is 404 either way.
 */
import { and, eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { GET as downloadRoute } from "@/app/api/v1/packages/[packageId]/download/route";
import { GET as zipRoute } from "@/app/api/v1/packages/[packageId]/download/zip/route";
import { GET as certificateRoute } from "@/app/api/v1/packages/[packageId]/certificate/route";
import { sealedFiles } from "@/server/db/schema";
import { sealDuePackages } from "@/server/domain/sealing/seal-due-packages";
import { resetSigningIdentity } from "@/server/domain/sealing/signing-identity";
import { buildOpenApiDocument } from "@/server/http/openapi";
import { createS3FileStore } from "@/server/storage/create-s3-file-store";
import { setFileStore } from "@/server/storage/get-file-store";
import { useTestDb } from "@/server/test/db";
import { callRoute } from "@/server/test/http";
import { startS3Server, type TTestS3Server } from "@/server/test/s3-server";
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

describe("If-None-Match on S3 storage", () => {
  let s3: TTestS3Server;
  let store: ReturnType<typeof createS3FileStore>;
  beforeAll(async () => {
    s3 = await startS3Server();
    store = createS3FileStore(s3.config);
  });
  afterEach(() => setFileStore(undefined));
  afterAll(async () => {
    store?.client.destroy();
    await s3?.stop();
  });

  /** The answer, its body read to the end, and the requests the S3 server received meanwhile. */
  async function withRequests(call: () => Promise<Response>) {
    const from = s3.requests.length;
    const res = await call();
    const body = Buffer.from(await res.arrayBuffer());
    return { res, body, requests: s3.requests.slice(from).map((r) => `${r.method} ${r.path}`) };
  }

  it("answers a matching tag with 304 from a HEAD, never GETting the object; any other tag gets the file", async () => {
    setFileStore(store);
    const { key, pkgId } = await signedPackage(t.db);
    expect(await sealDuePackages(t.db)).toEqual([{ packageId: pkgId, outcome: "sealed" }]);
    const params = { packageId: pkgId };

    for (const [route, kind] of [
      [downloadRoute, "merged"],
      [certificateRoute, "certificate"],
    ] as const) {
      const [file] = await t.db
        .select({ storageKey: sealedFiles.storageKey })
        .from(sealedFiles)
        .where(and(eq(sealedFiles.packageId, pkgId), eq(sealedFiles.kind, kind)));
      const object = `/${s3.config.bucket}/${file!.storageKey}`;

      const first = await withRequests(() => callRoute(route, { key, params }));
      expect([first.res.status, first.requests]).toEqual([200, [`GET ${object}`]]);
      const etag = first.res.headers.get("etag")!;
      expect(etag).toMatch(/^"[0-9a-f]{64}"$/);
      expect(first.body.subarray(0, 5).toString()).toBe("%PDF-");

      for (const condition of [etag, `W/${etag}`, "*"]) {
        const again = await withRequests(() => callRoute(route, { key, params, headers: { "if-none-match": condition } }));
        expect([condition, again.res.status, again.res.headers.get("etag"), again.body.byteLength]).toEqual([condition, 304, etag, 0]);
        expect(again.res.headers.get("cache-control")).toBe("private, no-store");
        expect(again.requests).toEqual([`HEAD ${object}`]);
      }

      const changed = await withRequests(() => callRoute(route, { key, params, headers: { "if-none-match": '"0000"' } }));
      expect([changed.res.status, changed.res.headers.get("etag"), changed.requests]).toEqual([200, etag, [`HEAD ${object}`, `GET ${object}`]]);
      expect(changed.body.equals(first.body)).toBe(true);
    }

    // A file gone from the bucket is 404, with a tag or without.
    const [merged] = await t.db
      .select({ storageKey: sealedFiles.storageKey })
      .from(sealedFiles)
      .where(and(eq(sealedFiles.packageId, pkgId), eq(sealedFiles.kind, "merged")));
    await store.delete(merged!.storageKey);
    expect((await callRoute(downloadRoute, { key, params, headers: { "if-none-match": "*" } })).status).toBe(404);
    expect((await callRoute(downloadRoute, { key, params })).status).toBe(404);
  });
});
