/** Shared set-up for package tests: an ACTIVE template built with the app's tables, and outbox readers. */
import { asc, eq } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { customFieldDefinitions, documents, templateFields, templateRoles, templates, webhookEvents } from "@/server/db/schema";
import { newId } from "@/server/lib/ids";
import { createTestKey, createTestOrg } from "@/server/test/factories";

export async function createActiveTemplate(
  db: Db,
  org: { organisationId: string; workspaceId: string },
  opts: {
    roles?: string[];
    questions?: { key: string; label: string; required: boolean }[];
    status?: "ACTIVE" | "DRAFT";
    documentState?: "UPLOADED" | "AWAITING_UPLOAD";
  } = {},
) {
  const id = newId("tpl");
  await db.insert(templates).values({
    id,
    organisationId: org.organisationId,
    workspaceId: org.workspaceId,
    name: "Lease",
    status: opts.status ?? "ACTIVE",
    mergeFields: [{ key: "customerName", label: "Customer", defaultValue: null }],
    questions: opts.questions ?? [],
  });
  const docId = newId("doc");
  await db.insert(documents).values({
    id: docId,
    organisationId: org.organisationId,
    workspaceId: org.workspaceId,
    templateId: id,
    name: "lease.pdf",
    contentType: "application/pdf",
    fileSize: 1000,
    uploadState: opts.documentState ?? "UPLOADED",
    storageKey: "files/lease",
    pageCount: 1,
    pageSizes: [{ width: 612, height: 792 }],
  });
  const roleIds: string[] = [];
  for (const [position, name] of (opts.roles ?? ["Tenant", "Landlord"]).entries()) {
    const roleId = newId("trl");
    roleIds.push(roleId);
    await db.insert(templateRoles).values({ id: roleId, templateId: id, position, name });
    await db
      .insert(templateFields)
      .values({ id: newId("tfl"), templateId: id, documentId: docId, roleId, type: "signature", page: 1, x: 10, y: 10, width: 100, height: 30 });
  }
  await db.insert(templateFields).values({
    id: newId("tfl"),
    templateId: id,
    documentId: docId,
    roleId: roleIds[0]!,
    type: "text",
    page: 1,
    x: 10,
    y: 60,
    width: 100,
    height: 20,
    required: false,
    mergeFieldKey: "customerName",
  });
  await db
    .insert(customFieldDefinitions)
    .values({ id: newId("cfd"), organisationId: org.organisationId, workspaceId: org.workspaceId, key: "contract", label: "Contract" })
    .onConflictDoNothing();
  return { templateId: id, documentId: docId };
}

/** The outbox rows of a package, in sequence order: `[event, data]`. */
export async function outbox(db: Db, packageId: string) {
  const rows = await db.select().from(webhookEvents).where(eq(webhookEvents.packageId, packageId)).orderBy(asc(webhookEvents.sequence));
  return rows.map((r) => ({ event: r.event, data: (r.payload as { data: Record<string, unknown> }).data }));
}

export async function eventNames(db: Db, packageId: string): Promise<string[]> {
  return (await outbox(db, packageId)).map((e) => e.event);
}

/** Recipients for the default two-role template: the first with a name, the second without. */
export const twoRecipients = [
  { email: "tenant@example.com", name: "Tina", roleIndex: 0 },
  { email: "landlord@example.com", roleIndex: 1 },
];

/** An organisation with an admin key (its value) and an ACTIVE two-role template. */
export async function orgWithTemplate(db: Db) {
  const org = await createTestOrg(db);
  const key = await createTestKey(db, org);
  const tpl = await createActiveTemplate(db, org);
  return { org, key: key.value, ...tpl };
}
