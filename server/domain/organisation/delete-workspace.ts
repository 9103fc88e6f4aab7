/**
 * Deletes a workspace with everything in it (owner only; docs/decisions/workspace-deletion.md). Only when that
 * destroys no evidence: the default workspace never (409); a live workspace only while it has never sent a
 * package (409, the same rule as switching test mode); a test workspace always — its packages, seals and mail are
 * marked TEST and prove nothing. One transaction: its API keys go (a key of the deleted workspace answers 401),
 * its package counters and edit locks, then the workspace row, whose deletion cascades to every tenant table
 * (templates, packages, documents, library, groups, fields, webhooks and their deliveries, mail, embed links),
 * then its package counters.
 * The audit trail stays, with the deletion written to the organisation's default workspace. Stored files go after
 * the commit, each only when nothing else points at it (releaseStoredFile); a failure there leaves an orphaned
 * file (logged), never a row pointing at a missing one.
 */
import { and, count, eq, inArray, isNotNull, ne, or } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import {
  apiKeys,
  documents,
  editLocks,
  libraryDocuments,
  packageCountDeltas,
  packageCounts,
  packageFields,
  packages,
  sealedFiles,
  templates,
  webhookEndpoints,
  workspaces,
} from "@/server/db/schema";
import type { TActor } from "@/server/domain/access/actor";
import { auditChange } from "@/server/domain/audit/audit-change";
import { releaseStoredFile } from "@/server/domain/documents/release-stored-file";
import { errors } from "@/server/lib/errors";

export const DEFAULT_WORKSPACE_KEPT = "The default workspace cannot be deleted";
export const SENT_WORKSPACE_KEPT =
  "This live workspace has sent packages: their records and sealed files are kept as evidence, so it cannot be deleted. Rename it instead";

export type TDeletedWorkspace = { id: string; name: string; deleted: { templates: number; packages: number; apiKeys: number; webhookEndpoints: number } };

export async function deleteWorkspace(db: Db, actor: TActor, workspaceId: string): Promise<TDeletedWorkspace> {
  const orgId = actor.organisation.id;
  const { result, storageKeys } = await db.transaction(async (tx) => {
    // FOR UPDATE: a send and a key's creation take the workspace row FOR SHARE, so neither slips in meanwhile.
    const [ws] = await tx
      .select()
      .from(workspaces)
      .where(and(eq(workspaces.id, workspaceId), eq(workspaces.organisationId, orgId)))
      .for("update");
    if (!ws) throw errors.notFound("Workspace");
    if (ws.isDefault) throw errors.conflict(DEFAULT_WORKSPACE_KEPT);
    if (!ws.isTest) {
      const [sent] = await tx
        .select({ id: packages.id })
        .from(packages)
        .where(and(eq(packages.workspaceId, ws.id), ne(packages.status, "DRAFT")))
        .limit(1);
      if (sent) throw errors.conflict(SENT_WORKSPACE_KEPT);
    }
    const counted = async (table: typeof templates | typeof packages | typeof apiKeys | typeof webhookEndpoints) =>
      (await tx.select({ n: count() }).from(table).where(eq(table.workspaceId, ws.id)))[0]!.n;
    const deleted = {
      templates: await counted(templates),
      packages: await counted(packages),
      apiKeys: await counted(apiKeys),
      webhookEndpoints: await counted(webhookEndpoints),
    };
    const keys = [
      ...(
        await tx
          .select({ a: documents.storageKey, b: documents.sourceStorageKey })
          .from(documents)
          .where(and(eq(documents.workspaceId, ws.id), or(isNotNull(documents.storageKey), isNotNull(documents.sourceStorageKey))))
      ).flatMap((d) => [d.a, d.b]),
      ...(await tx.select({ a: libraryDocuments.storageKey }).from(libraryDocuments).where(eq(libraryDocuments.workspaceId, ws.id))).map((d) => d.a),
      ...(await tx.select({ a: sealedFiles.storageKey }).from(sealedFiles).where(eq(sealedFiles.workspaceId, ws.id))).map((d) => d.a),
      ...(
        await tx
          .select({ a: packageFields.valueStorageKey })
          .from(packageFields)
          .innerJoin(packages, eq(packages.id, packageFields.packageId))
          .where(and(eq(packages.workspaceId, ws.id), isNotNull(packageFields.valueStorageKey)))
      ).map((d) => d.a),
    ].filter((k): k is string => k !== null);
    const lockedIds = [
      ...(await tx.select({ id: templates.id }).from(templates).where(eq(templates.workspaceId, ws.id))).map((r) => r.id),
      ...(await tx.select({ id: packages.id }).from(packages).where(eq(packages.workspaceId, ws.id))).map((r) => r.id),
    ];
    if (lockedIds.length > 0) await tx.delete(editLocks).where(and(eq(editLocks.organisationId, orgId), inArray(editLocks.resourceId, lockedIds)));
    await tx.delete(apiKeys).where(eq(apiKeys.workspaceId, ws.id));
    await tx.delete(workspaces).where(eq(workspaces.id, ws.id));
    // After the cascade: the packages' deletion itself writes count deltas (the counters' trigger).
    await tx.delete(packageCounts).where(eq(packageCounts.workspaceId, ws.id));
    await tx.delete(packageCountDeltas).where(eq(packageCountDeltas.workspaceId, ws.id));
    const [home] = await tx
      .select({ id: workspaces.id })
      .from(workspaces)
      .where(and(eq(workspaces.organisationId, orgId), eq(workspaces.isDefault, true)));
    await auditChange(tx, actor, { id: ws.id, organisationId: orgId, workspaceId: home?.id ?? null }, "workspace.deleted", {
      name: ws.name,
      test: ws.isTest,
      ...deleted,
    });
    return { result: { id: ws.id, name: ws.name, deleted }, storageKeys: [...new Set(keys)] };
  });
  for (const key of storageKeys) await releaseStoredFile(db, key);
  return result;
}
