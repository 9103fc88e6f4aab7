import { env, type TEnv } from "@/server/env";
import { createDbFileStore } from "./create-db-file-store";
import type { TFileStore } from "./file-store";

let current: Promise<TFileStore> | undefined;

async function fromEnv(e: TEnv): Promise<TFileStore> {
  if (e.STORAGE === "s3") {
    // Imported only when configured: the AWS SDK is large, and on Node 20 it prints a support warning at load.
    const { createS3FileStore } = await import("./create-s3-file-store");
    return createS3FileStore({
      bucket: e.S3_BUCKET!, // required by env validation when STORAGE=s3
      region: e.S3_REGION,
      endpoint: e.S3_ENDPOINT,
      accessKeyId: e.S3_ACCESS_KEY_ID,
      secretAccessKey: e.S3_SECRET_ACCESS_KEY,
      forcePathStyle: e.S3_FORCE_PATH_STYLE,
    });
  }
  // Reads the process database at each call, so it follows setDbHandle (start script, tests).
  return createDbFileStore();
}

/** The configured file store, created on first use (nothing is opened at import, so `next build` stays offline). */
export function getFileStore(): Promise<TFileStore> {
  current ??= fromEnv(env()).catch((err: unknown) => {
    current = undefined;
    throw err;
  });
  return current;
}

/** Tests install a store built with createDbFileStore / createS3FileStore; undefined goes back to the env's. */
export function setFileStore(store: TFileStore | undefined): void {
  current = store ? Promise.resolve(store) : undefined;
}
