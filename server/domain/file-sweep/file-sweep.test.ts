/**
 * The stored-file sweep (jobs.ts) on the database store, PGlite and PostgreSQL: a stored file is kept while any
 * column that holds a storage key names it — documents.storage_key and source_storage_key (a converted DOCX),
 * library_documents.storage_key, sealed_files.storage_key, package_fields.value_storage_key — or while a live
 * seal claim wrote it, or while it is younger than STORAGE_SWEEP_GRACE_HOURS; everything else under the swept
 * prefixes is deleted, across listing pages; keys outside them are never touched. The crash test
 * (crash-leftovers.test.ts) runs the same job on both backends after a real SIGKILL.
 */
import { Readable } from "node:stream";
import { eq } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { documents, libraryDocuments, packageFields, packages, sealedFiles, storedFiles } from "@/server/db/schema";
import { createActiveTemplate } from "@/server/domain/packages/test-support/fixtures";
import { resetEnvCache } from "@/server/env";
import { allJobs } from "@/server/jobs/all-jobs";
import { setClock } from "@/server/lib/clock";
import { runDueItem } from "@/server/lib/jobs";
import { newId } from "@/server/lib/ids";
import { getFileStore } from "@/server/storage/get-file-store";
import { useTestDb } from "@/server/test/db";
import { createTestKey, createTestOrg } from "@/server/test/factories";
import { fileSweepJobs, runFileSweep } from "./jobs";
import { packageFromTemplate } from "@/server/test/package-from-template";

const t = useTestDb();
const HOUR = 60 * 60_000;
afterEach(() => {
  setClock(undefined);
  delete process.env.STORAGE_SWEEP_GRACE_HOURS;
  resetEnvCache();
});

async function keys(): Promise<string[]> {
  return (await t.db.select({ key: storedFiles.key }).from(storedFiles)).map((r) => r.key).sort();
}

async function put(key: string, text = key) {
  await (await getFileStore()).put(key, Readable.from([Buffer.from(text)]));
}

/** A package from a template (its fields and sessions real), and a row of every kind that names a file. */
async function world() {
  const org = await createTestOrg(t.db);
  const key = (await createTestKey(t.db, org)).value;
  const tpl = await createActiveTemplate(t.db, org);
  const { id: packageId } = await packageFromTemplate(key, { templateId: tpl.templateId, title: "Lease" });
  const docId = tpl.documentId;
  const named = {
    document: `documents/${docId}/upl_pdf`,
    docxSource: `documents/${docId}/upl_docx`,
    library: `library/${newId("lib")}`,
    sealed: `sealed/${packageId}/slc_done/document-0.pdf`,
    signature: `signatures/ses_x/${newId("img")}.png`,
    liveSeal: `sealed/${packageId}/slc_live/merged-0.pdf`,
  };
  for (const k of Object.values(named)) await put(k);
  await t.db.update(documents).set({ storageKey: named.document, sourceStorageKey: named.docxSource }).where(eq(documents.id, docId));
  await t.db.insert(libraryDocuments).values({
    id: named.library.slice("library/".length),
    organisationId: org.organisationId,
    workspaceId: org.workspaceId,
    name: "NDA",
    fileSize: 1,
    storageKey: named.library,
    sha256: "x",
    pageCount: 1,
    pageSizes: [{ width: 1, height: 1 }],
  });
  await t.db.insert(sealedFiles).values({
    id: newId("sfl"),
    organisationId: org.organisationId,
    workspaceId: org.workspaceId,
    packageId,
    kind: "document",
    name: "Lease",
    storageKey: named.sealed,
    sha256: "x",
    size: 1,
    pages: 1,
  });
  const [field] = await t.db.select().from(packageFields).where(eq(packageFields.packageId, packageId)).limit(1);
  await t.db.update(packageFields).set({ valueStorageKey: named.signature, valueKind: "drawn" }).where(eq(packageFields.id, field!.id));
  // A seal in flight: its package holds the claim token its files are stored under.
  await t.db.update(packages).set({ status: "IN_PROGRESS", sealClaimToken: "slc_live" }).where(eq(packages.id, packageId));
  return { packageId, named };
}

describe("the stored-file sweep", () => {
  it("keeps every file a row names or a live seal claim wrote, deletes the rest past the grace, across pages, and nothing outside its prefixes", async () => {
    const { named } = await world();
    const orphans = [
      "documents/doc_gone/upl_1",
      "library/lib_gone",
      "sealed/pkg_gone/slc_1/certificate-0.pdf",
      "signatures/ses_gone/a.png",
      // More than a listing page (200) under one prefix.
      ...Array.from({ length: 230 }, (_, i) => `documents/doc_many/upl_${String(i).padStart(3, "0")}`),
    ];
    for (const k of orphans) await put(k);
    await put("other/not-ours");
    const everything = await keys();

    // Within the grace period nothing goes.
    await runFileSweep(t.db);
    setClock(() => new Date(Date.now() + 23 * HOUR));
    await runFileSweep(t.db);
    expect(await keys()).toEqual(everything);

    setClock(() => new Date(Date.now() + 25 * HOUR));
    const items = await runFileSweep(t.db);
    expect(await keys()).toEqual([...Object.values(named), "other/not-ours"].sort());
    // One pass: the unfinished uploads, then each prefix page by page (documents/ spans two pages).
    expect(items.map((i) => i.id)).toEqual([
      "unfinished",
      "documents/",
      expect.stringMatching(/^documents\/>documents\/doc_many\/upl_/),
      "library/",
      "sealed/",
      "signatures/",
    ]);
    // Each kept file is the very same file.
    for (const k of Object.values(named)) expect((await (await getFileStore()).stat(k))?.size).toBe(Buffer.byteLength(k));
  });

  it("reclaims a dead seal's files once its package no longer holds that claim", async () => {
    const { packageId, named } = await world();
    setClock(() => new Date(Date.now() + 25 * HOUR));
    await runFileSweep(t.db);
    expect(await keys()).toContain(named.liveSeal);
    // The next claim (a new token) makes the old one's files nobody's.
    await t.db.update(packages).set({ sealClaimToken: "slc_next" }).where(eq(packages.id, packageId));
    await runFileSweep(t.db);
    expect(await keys()).not.toContain(named.liveSeal);
    expect(await keys()).toContain(named.sealed);
  });

  it("takes its grace period from STORAGE_SWEEP_GRACE_HOURS", async () => {
    await put("documents/doc_gone/upl_1");
    process.env.STORAGE_SWEEP_GRACE_HOURS = "48";
    resetEnvCache();
    setClock(() => new Date(Date.now() + 47 * HOUR));
    await runFileSweep(t.db);
    expect(await keys()).toEqual(["documents/doc_gone/upl_1"]);
    setClock(() => new Date(Date.now() + 49 * HOUR));
    await runFileSweep(t.db);
    expect(await keys()).toEqual([]);
  });

  it("passes over a page it is backing off from, and is one of the worker's jobs", async () => {
    await put("documents/doc_gone/upl_1");
    await put("library/lib_gone");
    const job = fileSweepJobs({ graceMs: HOUR }).sweepStoredFiles;
    setClock(() => new Date(Date.now() + 2 * HOUR));
    // A worker that is backing off from the documents/ page (it failed before) passes it over this time.
    const handled: string[] = [];
    for (;;) {
      const run = await runDueItem(t.db, job, { at: new Date(Date.now() + 2 * HOUR), skip: ["documents/", ...handled] });
      if (!run) break;
      handled.push(run.item.id);
    }
    expect(handled).toEqual(["unfinished", "library/", "sealed/", "signatures/"]);
    expect(await keys()).toEqual(["documents/doc_gone/upl_1"]);
    expect(allJobs().map((j) => j.name)).toContain("sweep-stored-files");
  });
});
