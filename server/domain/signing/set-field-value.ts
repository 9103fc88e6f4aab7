import { eq } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { packageFields } from "@/server/db/schema";
import { now } from "@/server/lib/clock";
import { errors } from "@/server/lib/errors";
import { getFileStore } from "@/server/storage/get-file-store";
import { fieldView } from "./field-view";
import { findSigningSession } from "./find-signing-session";
import { lockSigningField } from "./lock-signing-field";
import type { TSetFieldValue, TSigningField, TSigningRequest } from "./schemas";
import { validateFieldValue } from "./validate-field-value";

/**
 * Stores a typed value of one of this recipient's fields (text, name, email, checkbox, typed signature or
 * initials); null or empty clears it. A typed signature replaces a drawn one (its stored image is removed
 * after the commit). Values live only here: sealing draws from these rows, never from the browser.
 */
export async function setFieldValue(db: Db, request: TSigningRequest, input: TSetFieldValue & { fieldId: string }): Promise<TSigningField> {
  const { fieldId } = input;
  const { session } = await findSigningSession(db, request);
  const { field, replacedKey } = await db.transaction(async (tx) => {
    const { field } = await lockSigningField(tx, session.id, fieldId);
    if (field.type === "date") throw errors.conflict("The date is filled in when you finish");
    const value = validateFieldValue(field.type, input.value);
    const kind = value === null ? null : field.type === "signature" || field.type === "initials" ? "typed" : "text";
    const [updated] = await tx
      .update(packageFields)
      .set({ value, valueKind: kind, valueStorageKey: null, valueSetAt: value === null ? null : now() })
      .where(eq(packageFields.id, field.id))
      .returning();
    return { field: updated!, replacedKey: field.valueStorageKey };
  });
  if (replacedKey) await (await getFileStore()).delete(replacedKey).catch(() => {});
  return fieldView(field);
}
