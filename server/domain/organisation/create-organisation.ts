import { count, sql } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { memberships, organisations, roles, users, workspaces } from "@/server/db/schema";
import { errors } from "@/server/lib/errors";
import { hashPassword } from "@/server/lib/crypto";
import { newId } from "@/server/lib/ids";
import { auditChange } from "@/server/domain/audit/audit-change";
import { BUILT_IN_ROLES } from "./built-in-roles";
import type { TCreateOwner } from "./schemas";

export type TCreatedOrganisation = { organisationId: string; userId: string; workspaceId: string; adminRoleId: string };

/** Whether any user exists yet: `/setup` is open only before the first owner. */
export async function hasAnyUser(db: Db): Promise<boolean> {
  const [row] = await db.select({ n: count() }).from(users);
  return (row?.n ?? 0) > 0;
}

/**
 * First run: the owner, their organisation with the built-in roles, and its default workspace, in one
 * transaction. Refuses (409) once any owner exists, so it can be offered at /setup and by the CLI safely.
 */
export async function createOrganisationWithOwner(db: Db, input: TCreateOwner): Promise<TCreatedOrganisation> {
  const passwordHash = await hashPassword(input.password);
  return db.transaction(async (tx) => {
    // Serialise concurrent first-run attempts: the check and the insert must not interleave.
    await tx.execute(sql`select pg_advisory_xact_lock(4242001)`);
    if (await hasAnyUser(tx)) throw errors.setupClosed();
    return insertOrganisation(tx, { ...input, passwordHash });
  });
}

export async function insertOrganisation(
  tx: Db,
  data: { name: string; email: string; passwordHash: string | null; organisationName: string },
): Promise<TCreatedOrganisation> {
  const organisationId = newId("org");
  const userId = newId("usr");
  const workspaceId = newId("ws");
  await tx.insert(organisations).values({ id: organisationId, name: data.organisationName });
  await tx.insert(users).values({ id: userId, email: data.email, name: data.name, passwordHash: data.passwordHash });
  const roleRows = BUILT_IN_ROLES.map((r) => ({ id: newId("role"), organisationId, ...r }));
  await tx.insert(roles).values(roleRows);
  const adminRoleId = roleRows.find((r) => r.builtIn === "admin")!.id;
  await tx.insert(memberships).values({ id: newId("mem"), organisationId, userId, roleId: adminRoleId, isOwner: true });
  await tx.insert(workspaces).values({ id: workspaceId, organisationId, name: "Default", slug: "default", isDefault: true });
  await auditChange(tx, { kind: "user", userId }, { id: organisationId, organisationId, workspaceId: null }, "organisation.created");
  return { organisationId, userId, workspaceId, adminRoleId };
}
