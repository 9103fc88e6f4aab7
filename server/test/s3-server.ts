/**
 * A real S3-speaking server for tests and the benchmark: s3rver (npm) on 127.0.0.1, a random port, files in a
 * temporary directory. It implements the calls the S3 backend makes (multipart upload, copy, head, get, delete)
 * and checks request signatures, except one: AbortMultipartUpload, which it answers 405. The helper adds it
 * (deleting the upload's parts, as S3 does), so tests can check that a failed put aborts its upload;
 * `pendingUploads()` counts the multipart uploads the server still holds (s3rver cannot list them either).
 */
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import S3rver from "s3rver";
import type { TS3Config } from "../storage/create-s3-file-store";

export type TTestS3Server = {
  config: TS3Config;
  directory: string;
  pendingUploads(): number;
  stop(): Promise<void>;
};

type TKoaContext = { method: string; query: Record<string, unknown>; status: number };
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
  // S3rver is a Koa app; Koa composes `middleware` when the server starts, so this one runs first.
  (server as unknown as { middleware: TKoaMiddleware[] }).middleware.unshift(abortMultipart);
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
    pendingUploads() {
      try {
        return readdirSync(uploadsDir).length;
      } catch {
        return 0; // created on the first multipart upload
      }
    },
    async stop() {
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
