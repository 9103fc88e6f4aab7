import { and, eq, isNull, or } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { customFieldDefinitions } from "@/server/db/schema";
import { errors } from "@/server/lib/errors";

/**
 * The metadata to store: keys of ACTIVE custom field definitions of the workspace (for every template, or for
 * `templateId`), only the values that are set. An unknown key is 422 at `metadata.<key>`.
 */
export async function resolveMetadata(
  db: Db,
  workspaceId: string,
  templateId: string | null,
  input: Record<string, string | null> | undefined,
): Promise<Record<string, string>> {
  if (!input || Object.keys(input).length === 0) return {};
  const scope = templateId
    ? or(isNull(customFieldDefinitions.templateId), eq(customFieldDefinitions.templateId, templateId))
    : isNull(customFieldDefinitions.templateId);
  const rows = await db
    .select({ key: customFieldDefinitions.key })
    .from(customFieldDefinitions)
    .where(and(eq(customFieldDefinitions.workspaceId, workspaceId), eq(customFieldDefinitions.active, true), scope));
  const known = new Set(rows.map((r) => r.key));
  const details: Record<string, string[]> = {};
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(input)) {
    if (!known.has(key)) details[`metadata.${key}`] = ["Unknown custom field (not an active definition of this workspace)"];
    else if (value !== null && value.trim() !== "") out[key] = value;
  }
  if (Object.keys(details).length > 0) throw errors.validation(details);
  return out;
}
