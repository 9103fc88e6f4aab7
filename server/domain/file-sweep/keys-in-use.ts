import { and, eq, inArray, isNotNull, isNull } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { documents, libraryDocuments, packageFields, packages, sealedFiles } from "@/server/db/schema";

/**
 * Where Foliosign stores files, one prefix per kind; every file under them is named by a row while it is in
 * use. The sweep looks only here: a bucket shared with anything else, or a key another version might add, is
 * never touched.
 * - `documents/<document id>/…`: an upload (`documents.storage_key`, shared by the packages made from a
 *   template) or a converted PDF, whose DOCX stays under `documents.source_storage_key`;
 * - `library/<id>`: `library_documents.storage_key`, also named by the documents added from it;
 * - `sealed/<package id>/<claim token>/…`: `sealed_files.storage_key` (each sealed document, the merged PDF
 *   and the certificate);
 * - `signatures/<session id>/…`: a drawn or uploaded image, `package_fields.value_storage_key`.
 */
export const SWEPT_PREFIXES = ["documents/", "library/", "sealed/", "signatures/"] as const;

/** A seal's files, stored before the commit that names them: `sealed/<package id>/<claim token>/<file>`. */
const SEALED_KEY = /^sealed\/([^/]+)\/([^/]+)\//;

/**
 * Which of `keys` are in use: named by any column that holds a storage key (each has an index), or written
 * by a seal whose claim is still live (its package, IN_PROGRESS and not deleted, still holds that claim token,
 * so its fenced commit may yet name them; the next claim replaces the token). Whatever this does not return,
 * nothing refers to.
 */
export async function keysInUse(db: Db, keys: readonly string[]): Promise<Set<string>> {
  const used = new Set<string>();
  if (keys.length === 0) return used;
  const list = [...keys];
  // One after the other: `db` may be a transaction, which runs one statement at a time anyway.
  const lookups = [
    () => db.select({ key: documents.storageKey }).from(documents).where(inArray(documents.storageKey, list)),
    () => db.select({ key: documents.sourceStorageKey }).from(documents).where(inArray(documents.sourceStorageKey, list)),
    () => db.select({ key: libraryDocuments.storageKey }).from(libraryDocuments).where(inArray(libraryDocuments.storageKey, list)),
    () => db.select({ key: sealedFiles.storageKey }).from(sealedFiles).where(inArray(sealedFiles.storageKey, list)),
    () => db.select({ key: packageFields.valueStorageKey }).from(packageFields).where(inArray(packageFields.valueStorageKey, list)),
  ];
  for (const lookup of lookups) for (const { key } of await lookup()) if (key) used.add(key);

  const sealing = new Map<string, string[]>();
  for (const key of list) {
    const match = SEALED_KEY.exec(key);
    if (match && !used.has(key)) sealing.set(match[1]!, [...(sealing.get(match[1]!) ?? []), key]);
  }
  if (sealing.size > 0) {
    const claims = await db
      .select({ id: packages.id, token: packages.sealClaimToken })
      .from(packages)
      .where(
        and(inArray(packages.id, [...sealing.keys()]), isNotNull(packages.sealClaimToken), eq(packages.status, "IN_PROGRESS"), isNull(packages.deletedAt)),
      );
    for (const { id, token } of claims) {
      for (const key of sealing.get(id) ?? []) if (SEALED_KEY.exec(key)![2] === token) used.add(key);
    }
  }
  return used;
}
