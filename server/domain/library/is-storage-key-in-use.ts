import { eq, or } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { documents, libraryDocuments } from "@/server/db/schema";

/**
 * Whether any library document or any template/package document still points at a stored file. A document
 * added from the library may share the library file's storage key (no copy is made), so neither side may
 * delete the stored file while the other still references it: whoever removes the last reference deletes it.
 */
export async function isStorageKeyInUse(db: Db, storageKey: string): Promise<boolean> {
  const [inLibrary] = await db.select({ id: libraryDocuments.id }).from(libraryDocuments).where(eq(libraryDocuments.storageKey, storageKey)).limit(1);
  if (inLibrary) return true;
  const [inDocuments] = await db
    .select({ id: documents.id })
    .from(documents)
    .where(or(eq(documents.storageKey, storageKey), eq(documents.sourceStorageKey, storageKey)))
    .limit(1);
  return Boolean(inDocuments);
}
