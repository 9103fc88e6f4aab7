import { and, asc, eq, isNull, or } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { customFieldDefinitions } from "@/server/db/schema";
import type { TActor } from "@/server/domain/access/actor";
import { findTemplate } from "@/server/domain/templates/find-template";
import { toCustomFieldView } from "./custom-field-view";
import type { TListCustomFieldsQuery } from "./schemas";

/**
 * The workspace's definitions by key. The API lists only active ones (spec), optionally narrowed to those that
 * apply to a template (unscoped or scoped to it; a template not in the workspace is 404); the app's
 * management page passes `includeInactive` to see them all.
 */
export async function listCustomFields(db: Db, actor: TActor, query: TListCustomFieldsQuery & { includeInactive?: boolean }) {
  if (query.templateId) await findTemplate(db, actor, query.templateId);
  const rows = await db
    .select()
    .from(customFieldDefinitions)
    .where(
      and(
        eq(customFieldDefinitions.workspaceId, actor.workspace.id),
        query.includeInactive ? undefined : eq(customFieldDefinitions.active, true),
        query.templateId ? or(isNull(customFieldDefinitions.templateId), eq(customFieldDefinitions.templateId, query.templateId)) : undefined,
      ),
    )
    .orderBy(asc(customFieldDefinitions.key), asc(customFieldDefinitions.id));
  return { customFields: rows.map(toCustomFieldView) };
}
