/**
 * Test data for the templates tests: an organisation with keys of both template access levels, and documents
 * inserted as the upload flow leaves them (UPLOADED, page count and sizes known) without uploading bytes.
 */
import type { Db } from "@/server/db/client";
import { documents, signingGroupMembers, signingGroups, type TPageSize } from "@/server/db/schema";
import { newId } from "@/server/lib/ids";
import { createTestKey, createTestOrg, createTestRole, type TTestOrg } from "@/server/test/factories";

export const A4: TPageSize = { width: 595.28, height: 841.89 };
/** A4 turned on its side: a page whose /Rotate 90 is applied, as displayed. */
export const A4_ROTATED: TPageSize = { width: 841.89, height: 595.28 };

export async function templatesOrg(db: Db) {
  const org = await createTestOrg(db);
  const key = await createTestKey(db, org);
  const useRole = await createTestRole(db, org.organisationId, { templateAccess: "USE" });
  const useKey = await createTestKey(db, org, { roleId: useRole });
  return { org, key: key.value, useKey: useKey.value };
}

export async function insertDocument(
  db: Db,
  org: Pick<TTestOrg, "organisationId" | "workspaceId">,
  templateId: string,
  opts: { pageSizes?: TPageSize[]; uploadState?: "AWAITING_UPLOAD" | "UPLOADED"; docx?: boolean; name?: string } = {},
) {
  const id = newId("doc");
  const uploaded = (opts.uploadState ?? "UPLOADED") === "UPLOADED";
  const pageSizes = opts.pageSizes ?? [A4];
  await db.insert(documents).values({
    id,
    organisationId: org.organisationId,
    workspaceId: org.workspaceId,
    templateId,
    name: opts.name ?? (opts.docx ? "contract.docx" : "contract.pdf"),
    contentType: opts.docx ? "application/vnd.openxmlformats-officedocument.wordprocessingml.document" : "application/pdf",
    fileSize: 1234,
    uploadState: uploaded ? "UPLOADED" : "AWAITING_UPLOAD",
    pageCount: uploaded && !opts.docx ? pageSizes.length : null,
    pageSizes: uploaded && !opts.docx ? pageSizes : null,
  });
  return id;
}

/** A signing group with `members` (one by default: a role may only be given a group somebody is in). */
export async function insertSigningGroup(
  db: Db,
  org: Pick<TTestOrg, "organisationId">,
  workspaceId: string,
  name = `Group ${newId("g").slice(-6)}`,
  members: string[] = ["signer@example.com"],
) {
  const id = newId("sgrp");
  await db.insert(signingGroups).values({ id, organisationId: org.organisationId, workspaceId, name });
  if (members.length > 0) await db.insert(signingGroupMembers).values(members.map((email) => ({ id: newId("sgm"), groupId: id, email })));
  return id;
}
