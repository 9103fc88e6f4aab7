/** Test data built through the same inserts the app uses. Passwords are skipped (null) to keep tests fast. */
import { and, eq } from "drizzle-orm";
import type { Db } from "../db/client";
import { apiKeys, roles, workspaces } from "../db/schema";
import { insertOrganisation } from "@/server/domain/organisation/create-organisation";
import { generateApiKeyValue } from "../domain/keys/key-value";
import { newId } from "../lib/ids";

export type TTestOrg = Awaited<ReturnType<typeof createTestOrg>>;

export async function createTestOrg(db: Db, name = "Acme") {
  const slug = `${name.toLowerCase().replace(/[^a-z0-9]+/g, "-")}-${newId("x").slice(-6)}`;
  const org = await insertOrganisation(db, {
    name: `${name} Owner`,
    email: `owner@${slug}.test`,
    passwordHash: null,
    organisationName: name,
  });
  const roleIds = Object.fromEntries(
    (await db.select().from(roles).where(eq(roles.organisationId, org.organisationId))).map((r) => [r.builtIn, r.id]),
  ) as Record<"admin" | "sender" | "viewer", string>;
  return { ...org, roleIds };
}

export async function createTestWorkspace(db: Db, organisationId: string, slug: string, opts: { test?: boolean } = {}) {
  const id = newId("ws");
  await db.insert(workspaces).values({ id, organisationId, name: slug, slug, isDefault: false, isTest: opts.test ?? false });
  return id;
}

export async function createTestRole(
  db: Db,
  organisationId: string,
  perms: Partial<Pick<typeof roles.$inferInsert, "apiAccess" | "canSendPackages" | "canViewAllPackages" | "canManageWebhooks" | "templateAccess">>,
  name = `Custom ${newId("r").slice(-6)}`,
) {
  const id = newId("role");
  await db.insert(roles).values({ id, organisationId, name, apiAccess: true, ...perms });
  return id;
}

/** Inserts a key directly (the owner's UI and CLI go through the keys domain). Returns its value. */
export async function createTestKey(
  db: Db,
  org: Pick<TTestOrg, "organisationId" | "workspaceId" | "userId" | "roleIds">,
  opts: { roleId?: string; workspaceId?: string; expiresAt?: Date | null; revokedAt?: Date | null; name?: string; test?: boolean } = {},
) {
  // `test`: a key of a test workspace (fsk_test_…); it must go with a test workspace to be accepted.
  const { value, hash, prefix } = generateApiKeyValue({ test: opts.test });
  const id = newId("key");
  await db.insert(apiKeys).values({
    id,
    organisationId: org.organisationId,
    workspaceId: opts.workspaceId ?? org.workspaceId,
    roleId: opts.roleId ?? org.roleIds.admin,
    issuedByUserId: org.userId,
    name: opts.name ?? "test key",
    hash,
    prefix,
    expiresAt: opts.expiresAt ?? null,
    revokedAt: opts.revokedAt ?? null,
  });
  return { id, value };
}

export async function getKey(db: Db, organisationId: string, id: string) {
  const [row] = await db
    .select()
    .from(apiKeys)
    .where(and(eq(apiKeys.id, id), eq(apiKeys.organisationId, organisationId)));
  return row;
}
