/**
 * A real S3-speaking server for tests and the benchmark: s3rver (npm) on 127.0.0.1, a random port, files in a
 * temporary directory. It implements the calls the S3 backend makes (multipart upload, copy, head, get, delete)
 * and checks request signatures, except one: AbortMultipartUpload, which it answers 405. The helper adds it
 * (deleting the upload's parts, as S3 does), so tests can check that a failed put aborts its upload;
 * `pendingUploads()` counts the multipart uploads the server still holds. s3rver cannot list them either
 * (ListMultipartUploads answers NotImplemented): the helper answers it too, each upload's Initiated being its
 * directory's mtime. A ListObjectsV2 page cut short by max-keys fails in s3rver on Node 20 (its continuation
 * token is DES-encrypted, which OpenSSL 3 no longer offers); the helper lists in full and cuts the page itself,
 * IsTruncated set (the store pages with StartAfter, never with the token). `setTime` moves an object's LastModified or an upload's Initiated (file times), so a test
 * can make them older or younger than a cut-off without waiting. `requests` lists every request the server
 * received, in order (method and path), so a test can tell a HEAD from a GET of an object.
 */
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync, utimesSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import S3rver from "s3rver";
import type { TS3Config } from "../storage/create-s3-file-store";

export type TTestS3Server = {
  config: TS3Config;
  directory: string;
  pendingUploads(): number;
  /** Every request received, in order: `GET /bucket/key` opens an object, `HEAD /bucket/key` reads its details. */
  readonly requests: { method: string; path: string }[];
  /** Ids of the multipart uploads the server holds. */
  uploadIds(): string[];
  /** Sets an object's LastModified (`{ key }`) or a multipart upload's Initiated (`{ uploadId }`). */
  setTime(target: { key: string } | { uploadId: string }, at: Date): void;
  stop(): Promise<void>;
};

type TKoaContext = { method: string; path: string; query: Record<string, unknown>; status: number; body?: unknown; type?: string };

const escapeXml = (text: string) => text.replace(/[<>&'"]/g, (c) => `&#${c.charCodeAt(0)};`);
type TKoaMiddleware = (ctx: TKoaContext, next: () => Promise<void>) => Promise<void>;

export async function startS3Server(bucket = "foliosign-test"): Promise<TTestS3Server> {
  const directory = mkdtempSync(path.join(os.tmpdir(), "foliosign-s3-"));
  // s3rver's layout: <directory>/<bucket>/._S3rver_uploads/<uploadId>/<part files>
  const uploadsDir = path.join(directory, bucket, "._S3rver_uploads");
  const server = new S3rver({
    address: "127.0.0.1",
    port: 0,
    silent: true,
    directory,
    configureBuckets: [{ name: bucket, configs: [] }],
  });
  const abortMultipart: TKoaMiddleware = async (ctx, next) => {
    const uploadId = ctx.query.uploadId;
    if (ctx.method !== "DELETE" || typeof uploadId !== "string") return next();
    if (/^[0-9a-f]{32}$/.test(uploadId)) rmSync(path.join(uploadsDir, uploadId), { recursive: true, force: true });
    ctx.status = 204;
  };
  const uploadIds = () => {
    try {
      return readdirSync(uploadsDir);
    } catch {
      return []; // created on the first multipart upload
    }
  };
  const listMultipart: TKoaMiddleware = async (ctx, next) => {
    if (ctx.method !== "GET" || !("uploads" in ctx.query) || ctx.path.replace(/\/$/, "") !== `/${bucket}`) return next();
    const prefix = typeof ctx.query.prefix === "string" ? ctx.query.prefix : "";
    const uploads = uploadIds()
      .map((id) => ({ id, key: readFileSync(path.join(uploadsDir, id, "key"), "utf8"), initiated: statSync(path.join(uploadsDir, id)).mtime }))
      .filter((u) => u.key.startsWith(prefix))
      .map((u) => `<Upload><Key>${escapeXml(u.key)}</Key><UploadId>${u.id}</UploadId><Initiated>${u.initiated.toISOString()}</Initiated></Upload>`);
    ctx.type = "application/xml";
    ctx.body = `<?xml version="1.0" encoding="UTF-8"?><ListMultipartUploadsResult><Bucket>${bucket}</Bucket><Prefix>${escapeXml(prefix)}</Prefix><IsTruncated>false</IsTruncated>${uploads.join("")}</ListMultipartUploadsResult>`;
    ctx.status = 200;
  };
  const cutListing: TKoaMiddleware = async (ctx, next) => {
    const max = Number(ctx.query["max-keys"]);
    if (ctx.method !== "GET" || ctx.query["list-type"] !== "2" || !Number.isInteger(max) || max <= 0) return next();
    const rest = { ...ctx.query };
    delete rest["max-keys"];
    ctx.query = rest;
    await next();
    const result = (
      ctx.body as
        { ListBucketResult?: { Contents: unknown[]; IsTruncated: boolean; KeyCount: number; MaxKeys: number; NextContinuationToken?: string } } | undefined
    )?.ListBucketResult;
    if (!result) return;
    result.MaxKeys = max;
    if (result.Contents.length > max) {
      Object.assign(result, { Contents: result.Contents.slice(0, max), IsTruncated: true, KeyCount: max, NextContinuationToken: "not-supported" });
    }
  };
  // S3rver is a Koa app; Koa composes `middleware` when the server starts. The first two run before anything;
  // the listing cut runs inside s3rver's XML encoder (which turns ctx.body into XML on the way out), just
  // before its virtual-host step and router.
  const middleware = (server as unknown as { middleware: TKoaMiddleware[] }).middleware;
  middleware.splice(middleware.length - 2, 0, cutListing);
  const requests: { method: string; path: string }[] = [];
  const logRequest: TKoaMiddleware = async (ctx, next) => {
    requests.push({ method: ctx.method, path: ctx.path });
    await next();
  };
  middleware.unshift(logRequest, abortMultipart, listMultipart);
  const { port } = await server.run();
  return {
    directory,
    config: {
      bucket,
      region: "us-east-1",
      endpoint: `http://127.0.0.1:${port}`,
      // s3rver's fixed credentials.
      accessKeyId: "S3RVER",
      secretAccessKey: "S3RVER",
      forcePathStyle: true,
    },
    pendingUploads: () => uploadIds().length,
    requests,
    uploadIds,
    setTime(target, at) {
      // s3rver's layout for an object: <directory>/<bucket>/<key's folders>/<last part>._S3rver_object
      const file =
        "key" in target
          ? path.join(directory, bucket, ...target.key.split("/").slice(0, -1), `${target.key.split("/").pop()!}._S3rver_object`)
          : path.join(uploadsDir, target.uploadId);
      utimesSync(file, at, at);
    },
    async stop() {
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
