import { eq, or } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { documents, libraryDocuments } from "@/server/db/schema";
import { getFileStore } from "@/server/storage/get-file-store";
import { logger } from "@/server/lib/logger";

/**
 * Deletes a stored file once nothing names it any more. Several rows may share one file (a library document
 * and every document added from it), so a document's deletion only releases its reference. Call it after the
 * deleting transaction committed: a failure here leaves an unreferenced file (logged), never a dangling row.
 */
export async function releaseStoredFile(db: Db, key: string): Promise<void> {
  const [doc] = await db
    .select({ id: documents.id })
    .from(documents)
    .where(or(eq(documents.storageKey, key), eq(documents.sourceStorageKey, key)))
    .limit(1);
  if (doc) return;
  const [library] = await db.select({ id: libraryDocuments.id }).from(libraryDocuments).where(eq(libraryDocuments.storageKey, key)).limit(1);
  if (library) return;
  await (await getFileStore()).delete(key).catch((err: unknown) => logger().warn({ err, key }, "a released stored file could not be deleted"));
}
