import { and, eq, ne, sql } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { workspaces } from "@/server/db/schema";
import { errors } from "@/server/lib/errors";
import { isUniqueViolation, violatedUniqueIndex } from "./unique-violation";

/** The 409 message of a taken slug, shared by create and rename (the fields' schema is in ./schemas.ts). */
export const slugTaken = (slug: string) => `A workspace with the slug "${slug}" already exists`;
/** The 409 message of a taken name: names are unique per organisation regardless of case ("Sales" and "sales"). */
export const workspaceNameTaken = (name: string) => `A workspace named "${name}" already exists (names are compared regardless of case)`;

/** 409 when another workspace of the organisation has this slug, or this name in any case (`exceptId`: the one renamed). */
export async function assertWorkspaceFieldsFree(tx: Db, organisationId: string, fields: { name: string; slug: string }, exceptId?: string): Promise<void> {
  const others = and(eq(workspaces.organisationId, organisationId), exceptId ? ne(workspaces.id, exceptId) : undefined);
  const [slug] = await tx
    .select({ id: workspaces.id })
    .from(workspaces)
    .where(and(others, eq(workspaces.slug, fields.slug)));
  if (slug) throw errors.conflict(slugTaken(fields.slug));
  const [name] = await tx
    .select({ id: workspaces.id })
    .from(workspaces)
    .where(and(others, sql`lower(${workspaces.name}) = ${fields.name.toLowerCase()}`));
  if (name) throw errors.conflict(workspaceNameTaken(fields.name));
}

/** The 409 for the race two concurrent requests can still lose at the unique indexes; null when `err` is not that. */
export function workspaceFieldsConflict(err: unknown, fields: { name: string; slug: string }) {
  if (!isUniqueViolation(err)) return null;
  // The slug's index unless the name's is named (as before names were checked, a violation naming no index is the slug's).
  return errors.conflict(violatedUniqueIndex(err) === "workspaces_org_lower_name_uq" ? workspaceNameTaken(fields.name) : slugTaken(fields.slug));
}
