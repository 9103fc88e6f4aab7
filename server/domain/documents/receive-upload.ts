import { and, eq, gt, isNull } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { documents, uploadTokens } from "@/server/db/schema";
import type { TInspectedFile } from "@/server/documents-io/inspect-file";
import { storeAndInspect } from "@/server/documents-io/store-and-inspect";
import { env } from "@/server/env";
import { now } from "@/server/lib/clock";
import { sha256Hex } from "@/server/lib/crypto";
import { errors } from "@/server/lib/errors";
import { newId } from "@/server/lib/ids";
import { FileSizeMismatchError, FileTooLargeError, type TFileBody } from "@/server/storage/file-store";
import { getFileStore } from "@/server/storage/get-file-store";
import { auditChange } from "@/server/domain/audit/audit-change";
import { toDocumentView } from "./document-view";
import { DOCUMENT_MESSAGES, DOCX_TYPE, PDF_TYPE } from "./messages";

/** A PUT without a body is an empty upload (refused by the size check). */
async function* emptyBody(): AsyncGenerator<Uint8Array> {}

/**
 * The PUT of an upload URL: the token is the only credential.
 *
 * The body streams into the file store under a new key, counted against the declared `fileSize` and
 * MAX_DOCUMENT_BYTES (longer → 413, shorter → 422), and in the same pass into a temporary copy that a child
 * process inspects (`storeAndInspect`: the server never holds the file; a file that hangs or crashes the
 * parser is a 422): a declared PDF must be a PDF that opens, unencrypted, with pages; a declared DOCX a DOCX
 * package. Any refusal deletes what was stored and leaves the document AWAITING_UPLOAD **and the URL
 * unused**, so the client may PUT again to the same URL while it is valid (or add the document again, as the
 * spec says).
 *
 * Success records size, SHA-256, page count and sizes, UPLOADED, and the URL as used, in one transaction with
 * an audit event. The URL is consumed by a conditional update (`used_at is null`): of two PUTs racing on one
 * URL exactly one commits, the other answers 410 and its stored copy is deleted.
 */
export async function receiveUpload(db: Db, input: { token: string; body: TFileBody | null }) {
  const startedAt = now();
  const [found] = await db
    .select({ token: uploadTokens, document: documents })
    .from(uploadTokens)
    .innerJoin(documents, eq(documents.id, uploadTokens.documentId))
    .where(eq(uploadTokens.tokenHash, sha256Hex(input.token)));
  if (!found) throw errors.notFound("Upload URL");
  const { token, document } = found;
  if (token.usedAt || document.uploadState === "UPLOADED") throw errors.gone(DOCUMENT_MESSAGES.uploadUsed);
  if (token.expiresAt.getTime() <= startedAt.getTime()) throw errors.gone(DOCUMENT_MESSAGES.uploadExpired);

  const limit = env().MAX_DOCUMENT_BYTES;
  const store = await getFileStore();
  const key = `documents/${document.id}/${newId("upl")}`;
  let inspected: TInspectedFile;
  try {
    inspected = await storeAndInspect(store, key, input.body ?? emptyBody(), { size: document.fileSize, maxBytes: limit, contentType: document.contentType });
  } catch (err) {
    if (err instanceof FileTooLargeError) {
      throw errors.payloadTooLarge(
        err.limit < document.fileSize ? DOCUMENT_MESSAGES.uploadOverLimit(limit) : DOCUMENT_MESSAGES.uploadLonger(document.fileSize),
      );
    }
    if (err instanceof FileSizeMismatchError) throw errors.unprocessable(DOCUMENT_MESSAGES.uploadShorter(err.declared, err.received));
    throw err;
  }

  try {
    assertDeclaredKind(inspected, document.contentType);
    return await db.transaction(async (tx) => {
      const at = now();
      // Started before expiry is enough: a slow upload that began in time is not refused at the finish line.
      const [claimed] = await tx
        .update(uploadTokens)
        .set({ usedAt: at })
        .where(and(eq(uploadTokens.id, token.id), isNull(uploadTokens.usedAt), gt(uploadTokens.expiresAt, startedAt)))
        .returning({ id: uploadTokens.id });
      if (!claimed) throw errors.gone(DOCUMENT_MESSAGES.uploadUsed);
      const [row] = await tx
        .update(documents)
        .set({
          uploadState: "UPLOADED",
          storageKey: key,
          sha256: inspected.sha256,
          pageCount: inspected.kind === "pdf" ? inspected.pageCount : null,
          pageSizes: inspected.kind === "pdf" ? inspected.pages : null,
          uploadedAt: at,
          updatedAt: at,
        })
        .where(and(eq(documents.id, document.id), eq(documents.uploadState, "AWAITING_UPLOAD")))
        .returning();
      if (!row) throw errors.gone(DOCUMENT_MESSAGES.uploadUsed);
      await auditChange(tx, null, row, "document.uploaded", { size: inspected.size, sha256: inspected.sha256, pageCount: row.pageCount });
      return toDocumentView(row);
    });
  } catch (err) {
    await store.delete(key).catch(() => undefined);
    throw err;
  }
}

function assertDeclaredKind(inspected: TInspectedFile, declared: string): void {
  if (inspected.kind === "pdf" && declared !== PDF_TYPE) throw errors.unprocessable(DOCUMENT_MESSAGES.wrongKind("PDF", declared));
  if (inspected.kind === "docx" && declared !== DOCX_TYPE) throw errors.unprocessable(DOCUMENT_MESSAGES.wrongKind("DOCX", declared));
}
