/**
 * The S3 backend against the shared storage contract, talking to a real S3-speaking server (s3rver) that this
 * file starts on 127.0.0.1. `leftovers` counts every object in the bucket and every multipart upload the server
 * still holds, so a failed put that left a staging object or unaborted parts is caught.
 */
import { CreateMultipartUploadCommand, DeleteObjectCommand, ListObjectsV2Command, PutObjectCommand, UploadPartCommand } from "@aws-sdk/client-s3";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startS3Server, type TTestS3Server } from "@/server/test/s3-server";
import { createS3FileStore, S3_STAGING_PREFIX } from "./create-s3-file-store";
import { describeFileStoreContract, pieces, testBytes } from "./file-store-contract";
import { StoredFileNotFoundError } from "./file-store";

let server: TTestS3Server;
let store: ReturnType<typeof createS3FileStore>;

async function allObjects(): Promise<string[]> {
  const listed = await store.client.send(new ListObjectsV2Command({ Bucket: server.config.bucket }));
  return (listed.Contents ?? []).map((o) => o.Key!);
}

async function leftovers(): Promise<number> {
  return (await allObjects()).length + server.pendingUploads();
}

beforeAll(async () => {
  server = await startS3Server();
  store = createS3FileStore(server.config);
});

afterAll(async () => {
  store?.client.destroy();
  await server?.stop();
});

beforeEach(async () => {
  for (const Key of await allObjects()) {
    await store.client.send(new DeleteObjectCommand({ Bucket: server.config.bucket, Key }));
  }
  expect(await leftovers()).toBe(0);
});

describeFileStoreContract("s3", {
  store: () => store,
  // S3's minimum part size: a file over it goes through a real multipart upload.
  multiChunkBytes: 5 * 1024 * 1024,
  leftovers,
  // A process killed mid-upload leaves a multipart upload with parts; one killed after its copy, a staging object.
  interruptPut: async () => {
    const Bucket = server.config.bucket;
    const { UploadId } = await store.client.send(new CreateMultipartUploadCommand({ Bucket, Key: `${S3_STAGING_PREFIX}up_dead1` }));
    await store.client.send(new UploadPartCommand({ Bucket, Key: `${S3_STAGING_PREFIX}up_dead1`, UploadId, PartNumber: 1, Body: testBytes(1000) }));
    await store.client.send(new PutObjectCommand({ Bucket, Key: `${S3_STAGING_PREFIX}up_dead2`, Body: testBytes(1000) }));
  },
});

describe("s3 backend", () => {
  it("publishes under the key only, with no staging object left", async () => {
    await store.put("docs/one", pieces(testBytes(1_000)));
    expect(await allObjects()).toEqual(["docs/one"]);
  });

  it("maps a wrong bucket to an error, not a silent not-found", async () => {
    const other = createS3FileStore({ ...server.config, bucket: "no-such-bucket" });
    const err = await other.get("docs/x").catch((e: unknown) => e);
    expect(err).not.toBeInstanceOf(StoredFileNotFoundError);
    other.client.destroy();
  });
});
