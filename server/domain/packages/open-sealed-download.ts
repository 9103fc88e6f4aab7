import type { Db } from "@/server/db/client";
import { env } from "@/server/env";
import { errors } from "@/server/lib/errors";
import type { TFileRef } from "@/server/storage/file-store";
import { getFileStore } from "@/server/storage/get-file-store";
import { findSealedFiles } from "./find-sealed-files";
import type { TPackageActor } from "./package-actor";
import type { TPackageRef } from "./schemas";

export type TDownload = { name: string; file: TFileRef };

/**
 * The merged sealed PDF (op 23) or the certificate alone (op 25), in the file store, not opened yet: the answer
 * opens it only to send it (server/http/file-answer.ts). The merged file is refused with 413 past
 * MAX_MERGED_DOWNLOAD_BYTES (the zip, op 24, has no such cap).
 */
export async function openSealedDownload(db: Db, actor: TPackageActor, input: TPackageRef & { kind: "merged" | "certificate" }): Promise<TDownload> {
  const { packageId, kind } = input;
  const { pkg, files } = await findSealedFiles(db, actor, packageId);
  const file = files.find((f) => f.kind === kind);
  if (!file) throw errors.conflict("The signed files of this package are not available");
  if (kind === "merged" && file.size > env().MAX_MERGED_DOWNLOAD_BYTES) {
    throw errors.payloadTooLarge(
      `The merged PDF is ${file.size} bytes, more than this instance merges for download (${env().MAX_MERGED_DOWNLOAD_BYTES}); download the zip instead: GET /api/v1/packages/${pkg.id}/download/zip`,
    );
  }
  const name = kind === "merged" ? `${pkg.title}.pdf` : `${pkg.title} - certificate.pdf`;
  return { name, file: { store: await getFileStore(), key: file.storageKey } };
}
