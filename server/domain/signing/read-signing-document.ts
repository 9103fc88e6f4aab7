import type { Readable } from "node:stream";
import { and, eq } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { documents } from "@/server/db/schema";
import { errors } from "@/server/lib/errors";
import { getFileStore } from "@/server/storage/get-file-store";
import { assertCanSign } from "./assert-can-sign";
import { findSigningSession } from "./find-signing-session";
import type { TSigningRequest } from "./schemas";

/** The original stored PDF of one of the link's package documents, streamed, while this recipient can sign. */
export async function readSigningDocument(
  db: Db,
  request: TSigningRequest,
  documentId: string,
): Promise<{ name: string; size: number; sha256: string; body: Readable }> {
  const { pkg, session } = await findSigningSession(db, request);
  assertCanSign(pkg, session);
  const [doc] = await db
    .select()
    .from(documents)
    .where(and(eq(documents.id, documentId), eq(documents.packageId, pkg.id)));
  if (!doc || !doc.storageKey || doc.uploadState !== "UPLOADED" || doc.contentType !== "application/pdf") throw errors.notFound("Document");
  const stored = await (await getFileStore()).get(doc.storageKey);
  return { name: doc.name, size: stored.size, sha256: stored.sha256, body: stored.body };
}
