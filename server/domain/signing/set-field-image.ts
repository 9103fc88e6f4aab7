import { randomBytes } from "node:crypto";
import { Readable } from "node:stream";
import { eq } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { packageFields } from "@/server/db/schema";
import { now } from "@/server/lib/clock";
import { errors } from "@/server/lib/errors";
import { readCapped } from "@/server/lib/read-capped";
import { getFileStore } from "@/server/storage/get-file-store";
import { fieldView } from "./field-view";
import { findSigningSession } from "./find-signing-session";
import { lockSigningField } from "./lock-signing-field";
import type { TSigningField, TSigningRequest } from "./schemas";
import { sniffPng } from "./sniff-png";

/** A drawn signature is a few KB; an uploaded one is scaled down by the page before it is sent. */
export const SIGNATURE_IMAGE_MAX_BYTES = 512 * 1024;

/**
 * Stores a drawn or uploaded signature (or initials) image of one of this recipient's fields: PNG bytes, size
 * capped and checked by content (sniffPng), kept in the file store under `value_storage_key`. The file is
 * written first and the row points at it only on commit; a refused or failed write removes the new file, and a
 * replaced image is removed after the commit.
 */
export async function setFieldImage(
  db: Db,
  request: TSigningRequest,
  input: { fieldId: string; kind: "drawn" | "uploaded"; body: ReadableStream<Uint8Array> | null; declaredSize?: number | null },
): Promise<TSigningField> {
  const { fieldId } = input;
  const { session } = await findSigningSession(db, request);
  if (input.declaredSize && input.declaredSize > SIGNATURE_IMAGE_MAX_BYTES) {
    throw errors.payloadTooLarge(`The signature image is larger than ${SIGNATURE_IMAGE_MAX_BYTES / 1024} KB`);
  }
  const bytes = await readCapped(input.body, SIGNATURE_IMAGE_MAX_BYTES);
  if (!bytes) throw errors.payloadTooLarge(`The signature image is larger than ${SIGNATURE_IMAGE_MAX_BYTES / 1024} KB`);
  sniffPng(bytes);
  // Check the turn, consent and field before storing anything; checked again under the lock below.
  await db
    .transaction((tx) => lockSigningField(tx, session.id, fieldId))
    .then(({ field }) => {
      if (field.type !== "signature" && field.type !== "initials") throw errors.conflict("Only a signature or initials field takes an image");
    });
  const store = await getFileStore();
  const key = `signatures/${session.id}/${fieldId}-${randomBytes(8).toString("hex")}.png`;
  await store.put(key, Readable.from([bytes]), { size: bytes.byteLength, maxBytes: SIGNATURE_IMAGE_MAX_BYTES, contentType: "image/png" });
  try {
    const { field, replacedKey } = await db.transaction(async (tx) => {
      const { field } = await lockSigningField(tx, session.id, fieldId);
      const [updated] = await tx
        .update(packageFields)
        .set({ value: null, valueKind: input.kind, valueStorageKey: key, valueSetAt: now() })
        .where(eq(packageFields.id, field.id))
        .returning();
      return { field: updated!, replacedKey: field.valueStorageKey };
    });
    if (replacedKey) await store.delete(replacedKey).catch(() => {});
    return fieldView(field);
  } catch (err) {
    await store.delete(key).catch(() => {});
    throw err;
  }
}
