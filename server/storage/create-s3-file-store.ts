import { Readable } from "node:stream";
import {
  AbortMultipartUploadCommand,
  CopyObjectCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListMultipartUploadsCommand,
  ListObjectsV2Command,
  S3Client,
  S3ServiceException,
} from "@aws-sdk/client-s3";
import { Upload } from "@aws-sdk/lib-storage";
import { newId } from "@/server/lib/ids";
import { logger } from "@/server/lib/logger";
import { assertFileKey, InvalidFileKeyError, StoredFileNotFoundError, type TFileStore, type TStoredFile } from "./file-store";
import { meterBody } from "./meter-body";

export type TS3Config = {
  bucket: string;
  region: string;
  /** Any S3-compatible server (MinIO, Garage, R2, …); unset means AWS. */
  endpoint?: string;
  /** Both or neither; neither lets the SDK find credentials itself (e.g. an IAM role). */
  accessKeyId?: string;
  secretAccessKey?: string;
  /** `bucket.host/key` is AWS's default; most self-hosted servers want `host/bucket/key`. */
  forcePathStyle?: boolean;
  /** Multipart part size: the most a put holds in memory. S3's minimum is 5 MiB. */
  partBytes?: number;
};

/** Where uploads land before they are published under their key; file keys cannot start with a dot. */
export const S3_STAGING_PREFIX = ".uploads/";
const MIN_PART_BYTES = 5 * 1024 * 1024;
const DEFAULT_LIST_LIMIT = 500;

/** Whether an object's key is one of our file keys (a bucket may hold other things; list never names them). */
function isFileKey(key: string): boolean {
  try {
    assertFileKey(key);
    return true;
  } catch (err) {
    if (err instanceof InvalidFileKeyError) return false;
    throw err;
  }
}

/**
 * GET names a missing key `NoSuchKey` (a missing bucket is `NoSuchBucket`: a configuration error, not "no
 * file"). HEAD has no body, so a missing key and a missing bucket are both a bare 404 `NotFound`.
 */
function isMissing(err: unknown): boolean {
  return err instanceof S3ServiceException && (err.name === "NoSuchKey" || err.name === "NotFound");
}

/**
 * The S3-compatible backend (`STORAGE=s3`).
 *
 * A put streams into a staging key with a multipart upload of `partBytes` parts, one in flight at a time, so
 * a body of unknown length is never held whole; the SDK aborts the multipart upload if the body fails. Once
 * every byte is in, a server-side copy publishes it under the key with its SHA-256 as metadata (the hash is
 * only known at the end, and S3 metadata cannot be changed in place), and the staging object is deleted.
 * Readers therefore never see a partial file or one without its hash. A process that dies mid-put can leave
 * a staging object or an incomplete multipart upload: `reclaimUnfinished` (the stored-file sweep) removes those
 * started before its cut-off, and a bucket lifecycle rule on `.uploads/` is a good backstop.
 */
export function createS3FileStore(config: TS3Config): TFileStore & { readonly client: S3Client } {
  const client = new S3Client({
    region: config.region,
    endpoint: config.endpoint,
    forcePathStyle: config.forcePathStyle ?? false,
    credentials: config.accessKeyId && config.secretAccessKey ? { accessKeyId: config.accessKeyId, secretAccessKey: config.secretAccessKey } : undefined,
    // The SDK's default adds CRC32 trailers in aws-chunked bodies, which many S3-compatible servers reject or
    // store verbatim; integrity is ours anyway (the SHA-256 computed while streaming).
    requestChecksumCalculation: "WHEN_REQUIRED",
    responseChecksumValidation: "WHEN_REQUIRED",
  });
  const Bucket = config.bucket;
  const partSize = Math.max(config.partBytes ?? MIN_PART_BYTES, MIN_PART_BYTES);

  function describe(key: string, head: { ContentLength?: number; ContentType?: string; LastModified?: Date; Metadata?: Record<string, string> }): TStoredFile {
    return {
      key,
      size: head.ContentLength ?? 0,
      sha256: head.Metadata?.sha256 ?? "",
      contentType: head.ContentType ?? "application/octet-stream",
      createdAt: head.LastModified ?? new Date(0),
    };
  }

  const store: TFileStore & { readonly client: S3Client } = {
    kind: "s3",
    client,

    async put(key, body, options = {}) {
      assertFileKey(key);
      const staging = `${S3_STAGING_PREFIX}${newId("up")}`;
      const contentType = options.contentType ?? "application/octet-stream";
      const metered = meterBody(body, options);
      try {
        const upload = new Upload({
          client,
          params: {
            Bucket,
            Key: staging,
            Body: Readable.from(metered.chunks, { objectMode: false, highWaterMark: 64 * 1024 }),
            ContentType: contentType,
          },
          partSize,
          queueSize: 1,
          leavePartsOnError: false,
        });
        await upload.done();
        const { size, sha256 } = metered.result();
        await client.send(
          new CopyObjectCommand({
            Bucket,
            Key: key,
            CopySource: `${Bucket}/${staging}`,
            MetadataDirective: "REPLACE",
            ContentType: contentType,
            Metadata: { sha256 },
          }),
        );
        return { size, sha256 };
      } finally {
        await client.send(new DeleteObjectCommand({ Bucket, Key: staging })).catch(() => undefined);
      }
    },

    async get(key) {
      assertFileKey(key);
      try {
        const res = await client.send(new GetObjectCommand({ Bucket, Key: key }));
        if (!(res.Body instanceof Readable)) throw new Error("S3 returned no body stream");
        return { ...describe(key, res), body: res.Body };
      } catch (err) {
        if (isMissing(err)) throw new StoredFileNotFoundError(key);
        throw err;
      }
    },

    async stat(key) {
      assertFileKey(key);
      try {
        return describe(key, await client.send(new HeadObjectCommand({ Bucket, Key: key })));
      } catch (err) {
        if (isMissing(err)) return null;
        throw err;
      }
    },

    async delete(key) {
      assertFileKey(key);
      // S3 answers 204 for a missing key too, which is the idempotence we promise.
      await client.send(new DeleteObjectCommand({ Bucket, Key: key }));
    },

    async list(prefix, olderThan, options = {}) {
      const limit = options.limit ?? DEFAULT_LIST_LIMIT;
      const res = await client.send(new ListObjectsV2Command({ Bucket, Prefix: prefix, StartAfter: options.after ?? undefined, MaxKeys: limit }));
      const objects = res.Contents ?? [];
      const files = objects
        .filter((o) => o.Key !== undefined && isFileKey(o.Key) && o.LastModified !== undefined && o.LastModified < olderThan)
        .map((o) => ({ key: o.Key!, size: o.Size ?? 0, createdAt: o.LastModified! }));
      const last = objects[objects.length - 1]?.Key;
      return { files, next: res.IsTruncated && last !== undefined ? last : null };
    },

    async reclaimUnfinished(before) {
      let removed = 0;
      // Staging objects: a put died between its upload and the delete that follows the copy.
      for (let after: string | undefined; ;) {
        const res = await client.send(new ListObjectsV2Command({ Bucket, Prefix: S3_STAGING_PREFIX, StartAfter: after }));
        for (const o of res.Contents ?? []) {
          if (o.Key && o.LastModified && o.LastModified < before) {
            await client.send(new DeleteObjectCommand({ Bucket, Key: o.Key }));
            removed++;
          }
        }
        after = res.Contents?.[res.Contents.length - 1]?.Key;
        if (!res.IsTruncated || after === undefined) break;
      }
      // Multipart uploads: a put died mid-upload; their parts are invisible to ListObjects but stored (and billed).
      try {
        for (let keyMarker: string | undefined, uploadIdMarker: string | undefined; ;) {
          const res = await client.send(
            new ListMultipartUploadsCommand({ Bucket, Prefix: S3_STAGING_PREFIX, KeyMarker: keyMarker, UploadIdMarker: uploadIdMarker }),
          );
          for (const u of res.Uploads ?? []) {
            if (u.Key && u.UploadId && u.Initiated && u.Initiated < before) {
              await client.send(new AbortMultipartUploadCommand({ Bucket, Key: u.Key, UploadId: u.UploadId }));
              removed++;
            }
          }
          if (!res.IsTruncated) break;
          keyMarker = res.NextKeyMarker;
          uploadIdMarker = res.NextUploadIdMarker;
        }
      } catch (err) {
        // Some S3-compatible servers do not list multipart uploads; the lifecycle rule is then the only way.
        if (!(err instanceof S3ServiceException && err.name === "NotImplemented")) throw err;
        logger().warn({ bucket: Bucket }, "this S3 server cannot list multipart uploads; give the bucket a lifecycle rule that aborts incomplete ones");
      }
      return removed;
    },

    within: () => store,
  };
  return store;
}
