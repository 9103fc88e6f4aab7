import { eq } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { customFieldDefinitions } from "@/server/db/schema";
import type { TActor } from "@/server/domain/access/actor";
import { auditChange } from "@/server/domain/audit/audit-change";
import { findCustomField } from "./find-custom-field";
import type { TCustomFieldRef } from "./schemas";

/** Deletes a definition; values already stored in packages' metadata stay as they were. */
export async function deleteCustomField(db: Db, actor: TActor, input: TCustomFieldRef) {
  return db.transaction(async (tx) => {
    const row = await findCustomField(tx, actor, input.customFieldId, { forUpdate: true });
    await tx.delete(customFieldDefinitions).where(eq(customFieldDefinitions.id, row.id));
    await auditChange(tx, actor, row.id, "custom_field.deleted", { key: row.key });
    return { id: row.id, deleted: true as const };
  });
}
