import type { Db } from "@/server/db/client";
import { libraryDocuments } from "@/server/db/schema";
import type { TActor } from "@/server/domain/access/actor";
import { storeAndInspect } from "@/server/documents-io/store-and-inspect";
import { now } from "@/server/lib/clock";
import { errors } from "@/server/lib/errors";
import { newId } from "@/server/lib/ids";
import { FileTooLargeError, type TFileBody } from "@/server/storage/file-store";
import { getFileStore } from "@/server/storage/get-file-store";
import { auditChange } from "@/server/domain/audit/audit-change";
import { toLibraryDocumentView } from "./library-document-view";
import { env } from "@/server/env";
import type { TUploadLibraryDocumentQuery } from "./schemas";

export type TUploadLibraryDocumentInput = TUploadLibraryDocumentQuery & {
  /** The raw bytes as they arrive (a request body); null is an empty upload. */
  body: TFileBody | null;
  /** The sender's declared length (Content-Length), checked against what arrives. */
  size?: number;
};

export const NOT_A_PDF = "A library document must be a PDF (this file is a DOCX document; convert it first)";

async function* nothing(): AsyncIterable<Uint8Array> {}

/**
 * Streams an upload into the file store (capped at the per-document limit, checked against the declared
 * length) and a temporary copy inspected in a child process (`storeAndInspect`): only a PDF that opens is
 * kept, with its size, SHA-256, page count and page sizes. Anything refused (413, 422 with the inspector's message) leaves nothing behind.
 */
export async function uploadLibraryDocument(db: Db, actor: TActor, input: TUploadLibraryDocumentInput) {
  const id = newId("libd");
  const storageKey = `library/${id}`;
  const store = await getFileStore();
  const maxBytes = env().MAX_DOCUMENT_BYTES;
  // An announced size over the limit is refused before a byte is read.
  if (input.size !== undefined && input.size > maxBytes) throw new FileTooLargeError(maxBytes);
  const inspected = await storeAndInspect(store, storageKey, input.body ?? nothing(), { size: input.size, maxBytes, contentType: "application/pdf" });
  try {
    if (inspected.kind !== "pdf") throw errors.unprocessable(NOT_A_PDF);
    const at = now();
    return await db.transaction(async (tx) => {
      const [row] = await tx
        .insert(libraryDocuments)
        .values({
          id,
          organisationId: actor.organisation.id,
          workspaceId: actor.workspace.id,
          name: input.name,
          description: input.description ?? null,
          contentType: "application/pdf",
          fileSize: inspected.size,
          storageKey,
          sha256: inspected.sha256,
          pageCount: inspected.pageCount,
          pageSizes: inspected.pages,
          createdByUserId: actor.user.id,
          createdAt: at,
          updatedAt: at,
        })
        .returning();
      await auditChange(tx, actor, id, "library.document_uploaded", { name: input.name, fileSize: inspected.size, sha256: inspected.sha256 });
      return toLibraryDocumentView(row!);
    });
  } catch (err) {
    // Nothing of a refused upload is kept; the key is new, so no one else can reference it yet.
    await store.delete(storageKey);
    throw err;
  }
}
