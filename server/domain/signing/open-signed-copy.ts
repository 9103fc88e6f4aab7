import { and, eq } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { sealedFiles } from "@/server/db/schema";
import { env } from "@/server/env";
import { errors } from "@/server/lib/errors";
import type { TFileRef } from "@/server/storage/file-store";
import { getFileStore } from "@/server/storage/get-file-store";
import { findSigningSession } from "./find-signing-session";
import type { TSigningRequest } from "./schemas";

/**
 * A recipient's own copy of what everyone signed: the merged sealed PDF (documents + certificate, one PAdES
 * signature), not opened yet, through the link the completed mail carries. Only for a COMPLETED package and a
 * recipient who signed it (409 otherwise: nothing sealed yet, or the package ended another way); an unknown or
 * revoked link is 404 as everywhere on the signing page. Past MAX_MERGED_DOWNLOAD_BYTES it is 413, as for the
 * API's merged download; the sender can then send the zip.
 */
export async function openSignedCopy(db: Db, request: TSigningRequest): Promise<{ name: string; file: TFileRef }> {
  const { pkg, session } = await findSigningSession(db, request);
  if (pkg.deletedAt) throw errors.notFound("Package");
  if (pkg.status !== "COMPLETED" || session.status !== "COMPLETED")
    throw errors.conflict("The signed copy is available once everyone has signed and it is sealed");
  const [file] = await db
    .select()
    .from(sealedFiles)
    .where(and(eq(sealedFiles.packageId, pkg.id), eq(sealedFiles.workspaceId, pkg.workspaceId), eq(sealedFiles.kind, "merged")));
  if (!file) throw errors.conflict("The signed files of this package are not available");
  if (file.size > env().MAX_MERGED_DOWNLOAD_BYTES) {
    throw errors.payloadTooLarge("The signed copy is larger than this service offers for download; ask the sender for the zip of the documents");
  }
  return { name: `${pkg.title}.pdf`, file: { store: await getFileStore(), key: file.storageKey } };
}
