import { and, eq, ne, sql } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { roles } from "@/server/db/schema";
import { errors } from "@/server/lib/errors";

/** Role names are unique per organisation regardless of case ("Admin" and "admin" would confuse everyone). */
export async function assertRoleNameFree(tx: Db, organisationId: string, name: string, exceptId?: string): Promise<void> {
  const [taken] = await tx
    .select({ id: roles.id })
    .from(roles)
    .where(and(eq(roles.organisationId, organisationId), sql`lower(${roles.name}) = ${name.toLowerCase()}`, exceptId ? ne(roles.id, exceptId) : undefined));
  if (taken) throw errors.conflict(roleNameTaken(name));
}

export const roleNameTaken = (name: string) => `A role named "${name}" already exists (names are compared regardless of case)`;
