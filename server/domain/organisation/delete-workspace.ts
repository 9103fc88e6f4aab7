/**
 * Deletes a workspace with everything in it (owner only; docs/decisions/workspace-deletion.md). Only when that
 * destroys no evidence: the default workspace never (409); a live workspace only while it has never sent a
 * package (409, the same rule as switching test mode); a test workspace always — its packages, seals and mail are
 * marked TEST and prove nothing. One transaction, which locks its packages (in id order, as a send or a signature
 * starts with its package), its templates, then the workspace row: its API keys go (a key of the deleted workspace
 * answers 401), its edit locks and event counters, then the workspace row, whose deletion cascades to every
 * tenant table (templates, packages, documents, library, groups, fields, webhooks and their deliveries, mail,
 * embed links), then its package counters.
 * The audit trail stays, with the deletion written to the organisation's default workspace. Stored files go after
 * the commit, each only when nothing else points at it (releaseStoredFile); a failure there leaves an orphaned
 * file (logged), never a row pointing at a missing one.
 */
import { and, asc, count, eq, inArray, isNotNull, or } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import {
  apiKeys,
  documents,
  editLocks,
  libraryDocuments,
  packageCountDeltas,
  packageCounts,
  packageEventSequences,
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
import { errorWithSqlState } from "@/server/lib/error-chain";
import { errors } from "@/server/lib/errors";
import { workspaceHasSent } from "./workspace-has-sent";

export const DEFAULT_WORKSPACE_KEPT = "The default workspace cannot be deleted";
export const SENT_WORKSPACE_KEPT =
  "This live workspace has sent packages: their records and sealed files are kept as evidence, so it cannot be deleted. Rename it instead";

export type TDeletedWorkspace = { id: string; name: string; deleted: { templates: number; packages: number; apiKeys: number; webhookEndpoints: number } };

type TWorkspaceContents = TDeletedWorkspace["deleted"];

/** What a deletion would take with it, counted (the dialog's preview and the deletion's answer). */
async function contentsOf(db: Db, workspaceId: string): Promise<TWorkspaceContents> {
  const counted = async (table: typeof templates | typeof packages | typeof apiKeys | typeof webhookEndpoints) =>
    (await db.select({ n: count() }).from(table).where(eq(table.workspaceId, workspaceId)))[0]!.n;
  return {
    templates: await counted(templates),
    packages: await counted(packages),
    apiKeys: await counted(apiKeys),
    webhookEndpoints: await counted(webhookEndpoints),
  };
}

/**
 * What deleting the workspace would take with it, for the owner to read before typing its name: the same counts
 * as the deletion's answer, or the deletion's own 404 and 409s. Reads only; the deletion counts again.
 */
export async function previewWorkspaceDeletion(db: Db, actor: TActor, workspaceId: string): Promise<TDeletedWorkspace> {
  const ws = await deletableWorkspace(db, actor, workspaceId);
  return { id: ws.id, name: ws.name, deleted: await contentsOf(db, ws.id) };
}

/**
 * The workspace of the actor's organisation, unless the rules keep it: 404 when there is none, 409 for the default
 * one and for a live one that has sent. Unlocked: a workspace that has sent stays so, so a refusal here is final.
 */
async function deletableWorkspace(db: Db, actor: TActor, workspaceId: string) {
  const [ws] = await db
    .select({ id: workspaces.id, name: workspaces.name, isDefault: workspaces.isDefault, isTest: workspaces.isTest })
    .from(workspaces)
    .where(and(eq(workspaces.id, workspaceId), eq(workspaces.organisationId, actor.organisation.id)));
  if (!ws) throw errors.notFound("Workspace");
  if (ws.isDefault) throw errors.conflict(DEFAULT_WORKSPACE_KEPT);
  if (!ws.isTest && (await workspaceHasSent(db, ws.id))) throw errors.conflict(SENT_WORKSPACE_KEPT);
  return ws;
}

/** A deadlock's victim (SQLSTATE 40P01), whichever driver raised it. */
const isDeadlock = (err: unknown) => errorWithSqlState(err, "40P01") !== undefined;

export async function deleteWorkspace(db: Db, actor: TActor, workspaceId: string): Promise<TDeletedWorkspace> {
  // The locks below follow the order the rest of the code takes them in, so a send or a signature meanwhile
  // waits or goes first; a transaction that locks in another order (a webhook worker recording an outcome) can
  // still make this the deadlock's victim, and then it starts again, up to three times.
  for (let attempt = 1; ; attempt++) {
    try {
      const { result, storageKeys } = await db.transaction((tx) => deleteInTransaction(tx, actor, workspaceId));
      for (const key of storageKeys) await releaseStoredFile(db, key);
      return result;
    } catch (err) {
      if (attempt >= 3 || !isDeadlock(err)) throw err;
    }
  }
}

async function deleteInTransaction(tx: Db, actor: TActor, workspaceId: string): Promise<{ result: TDeletedWorkspace; storageKeys: string[] }> {
  const orgId = actor.organisation.id;
  // Refused before any lock, so a refusal locks none of its packages; checked again under the workspace's lock.
  await deletableWorkspace(tx, actor, workspaceId);
  // Its packages first, in id order, as every transition of a package starts with its row (a send then takes
  // the workspace FOR SHARE: locking the workspace first would deadlock with it); then its templates; then the
  // workspace row FOR UPDATE, which a send and a key's creation take FOR SHARE, so neither slips in meanwhile.
  await tx.select({ id: packages.id }).from(packages).where(eq(packages.workspaceId, workspaceId)).orderBy(asc(packages.id)).for("update");
  await tx.select({ id: templates.id }).from(templates).where(eq(templates.workspaceId, workspaceId)).orderBy(asc(templates.id)).for("update");
  const [ws] = await tx
    .select()
    .from(workspaces)
    .where(and(eq(workspaces.id, workspaceId), eq(workspaces.organisationId, orgId)))
    .for("update");
  if (!ws) throw errors.notFound("Workspace");
  if (!ws.isTest && (await workspaceHasSent(tx, ws.id))) throw errors.conflict(SENT_WORKSPACE_KEPT);

  // Counted after the workspace's lock: a package or template created meanwhile (its insert held the workspace
  // FOR KEY SHARE until its commit, which that lock waited for) goes too.
  const deleted = await contentsOf(tx, ws.id);
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
  const ofWorkspace = (column: typeof editLocks.resourceId | typeof packageEventSequences.packageId, table: typeof templates | typeof packages) =>
    inArray(column, tx.select({ id: table.id }).from(table).where(eq(table.workspaceId, ws.id)));
  await tx
    .delete(editLocks)
    .where(and(eq(editLocks.organisationId, orgId), or(ofWorkspace(editLocks.resourceId, templates), ofWorkspace(editLocks.resourceId, packages))));
  // The per-package event counter holds no foreign key (it is written on the hot path of every event).
  await tx.delete(packageEventSequences).where(ofWorkspace(packageEventSequences.packageId, packages));
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
}
