import { and, eq, isNotNull } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { documents, editLocks, templates } from "@/server/db/schema";
import type { TActor } from "@/server/domain/access/actor";
import { assertNotLocked } from "@/server/domain/locks/assert-not-locked";
import { releaseStoredFile } from "@/server/domain/documents/release-stored-file";
import { auditChange } from "@/server/domain/audit/audit-change";
import { findTemplate } from "./find-template";
import type { TTemplateRef } from "./schemas";

/**
 * Deletes the template with its documents, roles and fields (by cascade). Packages made from it keep their own
 * copies. Refused (409) while another member edits it. The stored files go after the commit: a failure there
 * leaves an orphaned file (logged), never a template pointing at a missing one.
 */
export async function deleteTemplate(db: Db, actor: TActor, input: TTemplateRef) {
  const storageKeys = await db.transaction(async (tx) => {
    const template = await findTemplate(tx, actor, input.templateId, { forUpdate: true });
    await assertNotLocked(tx, actor, { type: "template", id: template.id });
    const docs = await tx
      .select({ storageKey: documents.storageKey, sourceStorageKey: documents.sourceStorageKey })
      .from(documents)
      .where(and(eq(documents.templateId, template.id), isNotNull(documents.storageKey)));
    await tx.delete(templates).where(eq(templates.id, template.id));
    await tx.delete(editLocks).where(and(eq(editLocks.resourceType, "template"), eq(editLocks.resourceId, template.id)));
    await auditChange(tx, actor, template.id, "template.deleted", { name: template.name });
    return docs.flatMap((d) => [d.storageKey, d.sourceStorageKey]).filter((k): k is string => k !== null);
  });
  // A library document or a package's copy may share a stored file: only an unreferenced one goes.
  for (const key of storageKeys) await releaseStoredFile(db, key);
  return { id: input.templateId, deleted: true as const };
}
