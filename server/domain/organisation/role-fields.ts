import { and, eq, ne, sql } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { roles, TEMPLATE_ACCESS } from "@/server/db/schema";
import { errors } from "@/server/http/errors";
import { z } from "@/server/http/zod";

/** The spec's permissions of a role, shared by create and update so the UI validates the same way. */
export const ZRoleFields = z.object({
  name: z.string().trim().min(1, "Name is required").max(100, "Use at most 100 characters"),
  apiAccess: z.boolean().default(false),
  canSendPackages: z.boolean().default(false),
  canViewAllPackages: z.boolean().default(false),
  canManageWebhooks: z.boolean().default(false),
  templateAccess: z.enum(TEMPLATE_ACCESS).default("USE"),
});

/** Role names are unique per organisation regardless of case ("Admin" and "admin" would confuse everyone). */
export async function assertRoleNameFree(tx: Db, organisationId: string, name: string, exceptId?: string): Promise<void> {
  const [taken] = await tx
    .select({ id: roles.id })
    .from(roles)
    .where(
      and(
        eq(roles.organisationId, organisationId),
        sql`lower(${roles.name}) = ${name.toLowerCase()}`,
        exceptId ? ne(roles.id, exceptId) : undefined,
      ),
    );
  if (taken) throw errors.conflict(roleNameTaken(name));
}

export const roleNameTaken = (name: string) => `A role named "${name}" already exists`;
