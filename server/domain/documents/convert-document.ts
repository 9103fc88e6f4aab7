import { Readable } from "node:stream";
import { and, eq } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { documents } from "@/server/db/schema";
import type { TActor } from "@/server/domain/access/actor";
import { convertDocx } from "@/server/documents-io/convert-docx";
import { inspectFile } from "@/server/documents-io/inspect-file";
import { env } from "@/server/env";
import { now } from "@/server/lib/clock";
import { AppError, errors } from "@/server/lib/errors";
import { newId } from "@/server/lib/ids";
import { getFileStore } from "@/server/storage/get-file-store";
import { auditChange } from "@/server/domain/audit/audit-change";
import { toDocumentView } from "./document-view";
import { findDocumentOwner, type TDocumentOwner } from "./find-document-owner";
import { findOwnerDocument } from "./find-owner-document";
import { DOCUMENT_MESSAGES, DOCX_TYPE, PDF_TYPE } from "./messages";

/**
 * DOCX → PDF. The uploaded DOCX stays as it is (`sourceStorageKey`, `sourceSha256`); the PDF is stored under a
 * new key, inspected, and becomes the document (content type, size, SHA-256, pages).
 *
 * No transaction is held while LibreOffice runs (seconds): the document is read and checked first, converted,
 * and the result is committed only if the document is still the DOCX that was converted (a concurrent
 * convert or delete wins: 409 or 404, and the new PDF is deleted).
 */
export async function convertDocument(db: Db, actor: TActor, input: { owner: TDocumentOwner; documentId: string }) {
  const before = await readConvertible(db, actor, input);
  const store = await getFileStore();
  const limit = env().MAX_DOCUMENT_BYTES;
  const docx = await readAll(store, before.storageKey);
  const pdf = await convertDocx(docx);
  if (pdf.length > limit) throw errors.payloadTooLarge(DOCUMENT_MESSAGES.convertedTooLarge(limit));
  const inspected = await inspectFile(pdf, { maxBytes: limit }).catch((err: unknown) => {
    // The user uploaded a DOCX; a PDF we cannot use is the converter's failure, not theirs.
    throw err instanceof AppError && err.kind === "UNPROCESSABLE" ? errors.badGateway(DOCUMENT_MESSAGES.convertedUnusable(err.message)) : err;
  });
  if (inspected.kind !== "pdf") throw errors.badGateway(DOCUMENT_MESSAGES.convertedUnusable("not a PDF"));

  const key = `documents/${before.id}/${newId("pdf")}`;
  await store.put(key, Readable.from([pdf]), { size: pdf.length, contentType: PDF_TYPE });
  try {
    return await db.transaction(async (tx) => {
      const owner = await findDocumentOwner(tx, actor, input.owner, { forChange: true });
      await findOwnerDocument(tx, actor, owner, before.id, { forUpdate: true });
      const at = now();
      const [row] = await tx
        .update(documents)
        .set({
          contentType: PDF_TYPE,
          fileSize: pdf.length,
          storageKey: key,
          sha256: inspected.sha256,
          pageCount: inspected.pageCount,
          pageSizes: inspected.pages,
          sourceStorageKey: before.storageKey,
          sourceSha256: before.sha256,
          updatedAt: at,
        })
        .where(and(eq(documents.id, before.id), eq(documents.contentType, DOCX_TYPE), eq(documents.storageKey, before.storageKey)))
        .returning();
      if (!row) throw errors.conflict(DOCUMENT_MESSAGES.changedDuringConversion);
      await owner.touch(tx);
      await auditChange(tx, actor, row, "document.converted", { sourceSha256: before.sha256, sha256: row.sha256, pageCount: row.pageCount });
      return toDocumentView(row);
    });
  } catch (err) {
    await store.delete(key).catch(() => undefined);
    throw err;
  }
}

/** The document if it can be converted now, with the checks a client can act on, before any work is done. */
async function readConvertible(db: Db, actor: TActor, input: { owner: TDocumentOwner; documentId: string }) {
  const owner = await findDocumentOwner(db, actor, input.owner);
  const doc = await findOwnerDocument(db, actor, owner, input.documentId);
  if (doc.contentType !== DOCX_TYPE) throw errors.badRequest(DOCUMENT_MESSAGES.onlyDocx);
  if (doc.uploadState !== "UPLOADED" || !doc.storageKey || !doc.sha256) throw errors.conflict(DOCUMENT_MESSAGES.notUploaded);
  // Refuse early while another member edits, rather than after a minute of LibreOffice; checked again at commit.
  await findDocumentOwner(db, actor, input.owner, { forChange: true });
  return { ...doc, storageKey: doc.storageKey, sha256: doc.sha256 };
}

/** The DOCX's bytes (LibreOffice reads a file; at most MAX_DOCUMENT_BYTES). */
async function readAll(store: Awaited<ReturnType<typeof getFileStore>>, key: string): Promise<Buffer> {
  const stored = await store.get(key);
  const chunks: Buffer[] = [];
  for await (const chunk of stored.body) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}
