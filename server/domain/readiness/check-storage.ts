import { randomBytes } from "node:crypto";
import { Readable } from "node:stream";
import { redactUrl } from "@/server/lib/redact-url";
import type { TFileStore } from "@/server/storage/file-store";
import { check, reason, type TReadinessCheck, type TReadinessContext } from "./types";

const TITLE = "File storage";

async function readAll(body: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks);
}

/** Write, read back and delete a small probe file in the configured store, as uploads and seals will. */
export async function checkStorage(ctx: TReadinessContext): Promise<TReadinessCheck> {
  const e = ctx.env;
  const facts =
    e.STORAGE === "s3"
      ? [
          { label: "STORAGE", value: "s3" },
          { label: "Bucket", value: e.S3_BUCKET ?? "" },
          { label: "Endpoint", value: e.S3_ENDPOINT ? redactUrl(e.S3_ENDPOINT) : `AWS S3 (${e.S3_REGION})` },
        ]
      : [{ label: "STORAGE", value: "database (files kept in PostgreSQL/PGlite)" }];
  const action =
    e.STORAGE === "s3"
      ? "Check S3_ENDPOINT, S3_BUCKET (it must exist), S3_REGION and the access key: it needs PutObject, GetObject and DeleteObject on the bucket."
      : "Fix the database first: files are kept in it.";
  if (e.STORAGE === "database" && !ctx.db)
    return check("storage", TITLE, "fail", "Not checked: files are kept in the database, which is not ready (see Database).", action, facts);
  const key = `readiness/probe-${randomBytes(8).toString("hex")}`;
  const bytes = randomBytes(1024);
  let step = "open the store";
  let store: TFileStore | undefined;
  try {
    store = await ctx.fileStore();
    step = "write";
    await store.put(key, Readable.from([bytes]), { size: bytes.length, contentType: "application/octet-stream" });
    step = "read back";
    const read = await readAll((await store.get(key)).body);
    if (!read.equals(bytes)) throw new Error("the bytes read back differ from those written");
    step = "delete";
    await store.delete(key);
    if (await store.stat(key)) throw new Error("the file is still there after delete");
  } catch (err) {
    if (store && step !== "delete") await store.delete(key).catch(() => undefined);
    return check("storage", TITLE, "fail", `A probe file could not be stored (${step}): ${reason(err)}.`, action, facts);
  }
  return check("storage", TITLE, "ok", "A probe file was written, read back intact and deleted.", null, facts);
}
