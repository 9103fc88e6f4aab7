import { and, eq, sql } from "drizzle-orm";
import type { z } from "zod";
import type { Db } from "@/server/db/client";
import { documents, libraryDocuments } from "@/server/db/schema";
import type { TActor } from "@/server/domain/access/actor";
import type { ZAddDocument } from "@/server/domain/templates/schemas";
import { env } from "@/server/env";
import { now } from "@/server/lib/clock";
import { errors } from "@/server/lib/errors";
import { newId } from "@/server/lib/ids";
import { auditChange } from "@/server/domain/audit/audit-change";
import { toDocumentView } from "./document-view";
import { findDocumentOwner, type TDocumentOwner } from "./find-document-owner";
import { issueUploadToken } from "./issue-upload-token";
import { DOCUMENT_MESSAGES } from "./messages";

export type TAddDocumentInput = z.output<typeof ZAddDocument> & { owner: TDocumentOwner };

/**
 * Adds a document to a template (or, later, a package), last in order.
 *
 * - A file to upload: refused with 413 when the declared `fileSize` is over MAX_DOCUMENT_BYTES (before any
 *   byte is sent); otherwise AWAITING_UPLOAD with a fresh single-use upload URL.
 * - A library document: the new row points at the library's stored file (no copy of the bytes, and nothing
 *   ever writes to a stored file, so the library's original cannot change), UPLOADED at once with the
 *   library's size, SHA-256 and pages; no upload URL.
 */
export async function addDocument(db: Db, actor: TActor, input: TAddDocumentInput) {
  const limit = env().MAX_DOCUMENT_BYTES;
  if ("fileSize" in input && input.fileSize > limit) throw errors.payloadTooLarge(DOCUMENT_MESSAGES.tooLarge(limit));
  return db.transaction(async (tx) => {
    const owner = await findDocumentOwner(tx, actor, input.owner, { forChange: true });
    const [{ next }] = (await tx
      .select({ next: sql<number>`coalesce(max(${documents.position}) + 1, 0)::int` })
      .from(documents)
      .where(owner.owns)) as [{ next: number }];
    const at = now();
    const base = {
      id: newId("doc"),
      organisationId: actor.organisation.id,
      workspaceId: actor.workspace.id,
      ...owner.columns,
      position: next,
      createdAt: at,
      updatedAt: at,
    };
    let values: typeof documents.$inferInsert;
    if ("libraryDocumentId" in input) {
      const [library] = await tx
        .select()
        .from(libraryDocuments)
        .where(and(eq(libraryDocuments.id, input.libraryDocumentId), eq(libraryDocuments.workspaceId, actor.workspace.id)));
      if (!library) throw errors.notFound("Library document");
      values = {
        ...base,
        name: input.name ?? library.name,
        contentType: library.contentType,
        fileSize: library.fileSize,
        uploadState: "UPLOADED",
        storageKey: library.storageKey,
        sha256: library.sha256,
        pageCount: library.pageCount,
        pageSizes: library.pageSizes,
        libraryDocumentId: library.id,
        uploadedAt: at,
      };
    } else {
      values = { ...base, name: input.name, contentType: input.contentType, fileSize: input.fileSize, uploadState: "AWAITING_UPLOAD" };
    }
    const [row] = await tx.insert(documents).values(values).returning();
    const upload = row!.uploadState === "AWAITING_UPLOAD" ? await issueUploadToken(tx, row!.id) : null;
    await owner.touch(tx);
    await auditChange(tx, actor, row!, "document.added", {
      contentType: row!.contentType,
      fileSize: row!.fileSize,
      libraryDocumentId: row!.libraryDocumentId,
    });
    return {
      document: toDocumentView(row!),
      uploadUrl: upload?.uploadUrl ?? null,
      uploadUrlExpiresAt: upload?.expiresAt.toISOString() ?? null,
    };
  });
}
