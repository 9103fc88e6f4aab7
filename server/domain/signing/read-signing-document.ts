import { and, eq } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { documents } from "@/server/db/schema";
import { errors } from "@/server/lib/errors";
import type { TFileRef } from "@/server/storage/file-store";
import { getFileStore } from "@/server/storage/get-file-store";
import { assertCanSign } from "./assert-can-sign";
import { findSigningSession } from "./find-signing-session";
import type { TSigningRequest } from "./schemas";

/** The original stored PDF of one of the link's package documents, not opened yet, while this recipient can sign. */
export async function readSigningDocument(db: Db, request: TSigningRequest, documentId: string): Promise<{ name: string; file: TFileRef }> {
  const { pkg, session } = await findSigningSession(db, request);
  assertCanSign(pkg, session);
  const [doc] = await db
    .select()
    .from(documents)
    .where(and(eq(documents.id, documentId), eq(documents.packageId, pkg.id)));
  if (!doc || !doc.storageKey || doc.uploadState !== "UPLOADED" || doc.contentType !== "application/pdf") throw errors.notFound("Document");
  return { name: doc.name, file: { store: await getFileStore(), key: doc.storageKey } };
}
