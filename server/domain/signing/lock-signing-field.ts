import { and, eq } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { packageFields } from "@/server/db/schema";
import type { TPackageRow } from "@/server/domain/packages/find-package";
import type { TSessionRow } from "@/server/domain/packages/invite-session";
import { lockRecipientSession } from "./lock-recipient-session";
import { errors } from "@/server/lib/errors";
import { requireConsent } from "./require-consent";

export type TFieldRow = typeof packageFields.$inferSelect;

/**
 * In a transaction: the package locked (a hold or void and a field write apply one after the other), this
 * recipient's turn checked, consent given, and one of THIS session's fields (another recipient's is 404).
 * A field the sender filled (a merge field) cannot be changed.
 */
export async function lockSigningField(tx: Db, sessionId: string, fieldId: string): Promise<{ pkg: TPackageRow; session: TSessionRow; field: TFieldRow }> {
  const { pkg, session } = await lockRecipientSession(tx, sessionId);
  requireConsent(session);
  const [field] = await tx
    .select()
    .from(packageFields)
    .where(and(eq(packageFields.id, fieldId), eq(packageFields.sessionId, session.id)));
  if (!field) throw errors.notFound("Field");
  if (field.mergeFieldKey !== null && field.value !== null) throw errors.conflict("The sender filled in this field; it cannot be changed");
  return { pkg, session, field };
}
