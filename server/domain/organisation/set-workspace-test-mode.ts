import { and, eq, isNull } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { apiKeys, workspaces } from "@/server/db/schema";
import type { TActor } from "@/server/domain/access/actor";
import { auditChange } from "@/server/domain/audit/audit-change";
import { errors } from "@/server/lib/errors";
import { now } from "@/server/lib/clock";
import { workspaceHasSent } from "./workspace-has-sent";
import type { TSetWorkspaceTestMode, TWorkspaceTestModeResult } from "./schemas";

/** The 409 of a workspace that has already sent something: its packages, mail and seals keep the mode they had. */
export const SENT_PACKAGES_MESSAGE = "This workspace has sent packages, so it cannot change between test and live: create a new workspace instead";

/**
 * Makes a workspace a test workspace or a live one (owner only; docs/decisions/test-mode.md). Allowed only while
 * no package of the workspace has ever left DRAFT (deleted ones included), so every sent package, its mail, its
 * allowance and its seal belong to one mode for good. Every unrevoked key of the workspace is revoked in the same
 * transaction: a key's value says its mode (`fsk_test_…`), so keys are issued again after the switch. Setting the
 * mode a workspace already has changes nothing (no audit event, no key revoked).
 *
 * The workspace row is locked FOR UPDATE: a send (performSend) and a key's creation take it FOR SHARE, so either
 * they finish first (and this sees the sent package or the new key) or they wait and see the new mode.
 */
export async function setWorkspaceTestMode(db: Db, actor: TActor, input: TSetWorkspaceTestMode): Promise<TWorkspaceTestModeResult> {
  const orgId = actor.organisation.id;
  return db.transaction(async (tx) => {
    const [current] = await tx
      .select()
      .from(workspaces)
      .where(and(eq(workspaces.id, input.id), eq(workspaces.organisationId, orgId)))
      .for("update");
    if (!current) throw errors.notFound("Workspace");
    const item = { id: current.id, name: current.name, slug: current.slug, isDefault: current.isDefault, createdAt: current.createdAt };
    const sent = await workspaceHasSent(tx, current.id);
    if (current.isTest === input.test) return { ...item, isTest: current.isTest, hasSent: sent, keysRevoked: 0 };
    if (sent) throw errors.conflict(SENT_PACKAGES_MESSAGE);
    const at = now();
    await tx.update(workspaces).set({ isTest: input.test, updatedAt: at }).where(eq(workspaces.id, current.id));
    const revoked = await tx
      .update(apiKeys)
      .set({ revokedAt: at })
      .where(and(eq(apiKeys.workspaceId, current.id), isNull(apiKeys.revokedAt)))
      .returning({ id: apiKeys.id, prefix: apiKeys.prefix });
    await auditChange(tx, actor, { id: current.id, organisationId: orgId, workspaceId: current.id }, "workspace.test_mode_changed", {
      test: input.test,
      keysRevoked: revoked.map((k) => k.prefix),
    });
    return { ...item, isTest: input.test, hasSent: false, keysRevoked: revoked.length };
  });
}
