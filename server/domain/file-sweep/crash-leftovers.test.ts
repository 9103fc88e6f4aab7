/**
 * Issue 24, item 5: what crashes leave in storage is reclaimed, and nothing live is ever deleted — proved with a
 * real crash, on both storage backends (database chunks; S3 through s3rver), on PGlite and PostgreSQL.
 *
 * A child process (test-support/crash-process.ts) receives an upload through the real domain function and
 * seals a package with the real sealing job; it is SIGKILLed once the upload has stored 8 MiB of a declared
 * 20 MB and the seal has stored its three files but not committed them. Then:
 * 1. the leftovers are there: unnamed chunks (database) or an incomplete multipart upload (S3), and the seal's
 *    `sealed/<package>/<token>/…` files that no row names;
 * 2. a sweep now removes nothing: everything is younger than the grace period;
 * 3. 25 hours later (the clock moved) the sweep removes the upload's leftovers, while an upload younger than the
 *    grace period (running in this process, started "now") keeps its pieces and then completes intact, and the
 *    dead seal's files stay while the package still holds that seal's claim token (its commit could yet come);
 * 4. once the package is sealed again (a new claim), the dead seal's files are removed too;
 * and every file in use — the template's document (shared by its packages), the sealed files of a completed
 * package, the signature images, a library document, and the new seal's files — is byte-identical throughout;
 * nothing outside the swept prefixes is touched.
 *
 * PGlite admits one process per data directory, so there the database is a directory the test and the child
 * take turns on (the child's commits survive its SIGKILL); with DATABASE_URL both use the test's database.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import { Readable } from "node:stream";
import { and, count, eq, notInArray, sql } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from "vitest";
import { POST as sendRoute } from "@/app/api/v1/packages/[packageId]/send/route";
import * as templateDocuments from "@/app/api/v1/templates/[templateId]/documents/route";
import { openPglite, setDbHandle, type Db, type DbHandle } from "@/server/db/client";
import { documents, libraryDocuments, packageFields, packages, sealedFiles, storedFileChunks, storedFiles } from "@/server/db/schema";
import { createTestTemplate } from "@/server/domain/documents/test-support/fixtures";
import { completeSession } from "@/server/domain/signing/complete-session";
import { openSession } from "@/server/domain/signing/open-session";
import { createActiveTemplate } from "@/server/domain/packages/test-support/fixtures";
import { sealDuePackages } from "@/server/domain/sealing/seal-due-packages";
import { resetSigningIdentity } from "@/server/domain/sealing/signing-identity";
import { tokenOf } from "@/server/http/test-support/put-upload";
import { setClock } from "@/server/lib/clock";
import { newId } from "@/server/lib/ids";
import { createS3FileStore } from "@/server/storage/create-s3-file-store";
import { testBytes } from "@/server/storage/file-store-contract";
import type { TFileStore } from "@/server/storage/file-store";
import { getFileStore, setFileStore } from "@/server/storage/get-file-store";
import { useTestDb, type TTestDb } from "@/server/test/db";
import { createTestKey, createTestOrg } from "@/server/test/factories";
import { callJson } from "@/server/test/http";
import { startS3Server, type TTestS3Server } from "@/server/test/s3-server";
import { makeOriginal, makeSignaturePng } from "@/server/test/sealing-fixtures";
import { runFileSweep } from "./jobs";
import { SWEPT_PREFIXES } from "./keys-in-use";
import { packageFromTemplate } from "@/server/test/package-from-template";

const onPostgres = Boolean(process.env.DATABASE_URL);
const pg: TTestDb | undefined = onPostgres ? useTestDb() : undefined;
const HOUR = 60 * 60_000;
const MiB = 1024 * 1024;
const CRASH_UPLOAD_BYTES = 8 * MiB;
const children: ChildProcess[] = [];
let s3: TTestS3Server | undefined;
let scratch = "";

beforeAll(async () => {
  scratch = mkdtempSync(path.join(os.tmpdir(), "foliosign-crash-test-"));
  s3 = await startS3Server();
});
afterAll(async () => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  await s3?.stop();
  rmSync(scratch, { recursive: true, force: true });
});
afterEach(() => {
  setClock(undefined);
  setFileStore(undefined);
  resetSigningIdentity();
});

/** The database the test and the child share: PostgreSQL's test database, or a PGlite directory used in turns. */
async function openShared(): Promise<{ db: () => Db; childArg: string; handOver(): Promise<void>; takeBack(): Promise<void>; close(): Promise<void> }> {
  if (pg) {
    const url = pg.url;
    return { db: () => pg.db, childArg: `postgres:${url}`, handOver: async () => {}, takeBack: async () => {}, close: async () => {} };
  }
  const dir = path.join(mkdtempSync(path.join(scratch, "pglite-")), "data");
  let handle: DbHandle | undefined = await openPglite({ dataDir: dir, loadDataDir: new Blob([readFileSync(inject("pgliteSnapshot"))]) });
  setDbHandle(handle);
  return {
    db: () => handle!.db,
    childArg: `pglite:${dir}`,
    async handOver() {
      setDbHandle(undefined);
      await handle!.close();
      handle = undefined;
    },
    async takeBack() {
      handle = await openPglite({ dataDir: dir });
      setDbHandle(handle);
    },
    async close() {
      setDbHandle(undefined);
      await handle?.close();
    },
  };
}

function spawnCrashProcess(dbArg: string, config: { token: string; stallAfter: number }, env: Record<string, string>) {
  const child = spawn(process.execPath, ["--import", "tsx", "server/domain/file-sweep/test-support/crash-process.ts", dbArg, JSON.stringify(config)], {
    // Its upload's temporary copy goes under this test's scratch directory, removed at the end.
    env: { ...process.env, ...env, LOG_LEVEL: "warn", TMPDIR: scratch },
    stdio: ["ignore", "pipe", "inherit"],
  });
  children.push(child);
  const seen = new Set<string>();
  const waiters: { msg: string; resolve: () => void }[] = [];
  createInterface({ input: child.stdout! }).on("line", (text) => {
    let msg: string;
    try {
      msg = (JSON.parse(text) as { msg: string }).msg;
    } catch {
      return;
    }
    seen.add(msg);
    for (const w of waiters.filter((x) => x.msg === msg)) w.resolve();
  });
  const exited = new Promise<NodeJS.Signals | null>((resolve) => child.on("exit", (_code, signal) => resolve(signal)));
  const said = (msg: string) => (seen.has(msg) ? Promise.resolve() : new Promise<void>((resolve) => waiters.push({ msg, resolve })));
  return { child, exited, said };
}

/** s3rver writes a part's checksum file once the part itself is stored. */
const partStored = (uploadId: string) => existsSync(path.join(s3!.directory, s3!.config.bucket, "._S3rver_uploads", uploadId, "1.md5"));

const sha = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

async function readBytes(store: TFileStore, key: string): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const part of (await store.get(key)).body) parts.push(Buffer.from(part as Uint8Array));
  return Buffer.concat(parts);
}

/** Every file under the swept prefixes, and one outside them, with the SHA-256 of its bytes. */
async function contents(store: TFileStore): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const prefix of [...SWEPT_PREFIXES, "other/"]) {
    for (let after: string | null = null; ;) {
      const page = await store.list(prefix, new Date(Date.now() + 1000 * HOUR), { after });
      for (const f of page.files) out.set(f.key, sha(await readBytes(store, f.key)));
      if (page.next === null) break;
      after = page.next;
    }
  }
  return out;
}

/** A body that sends `first` bytes, then waits for `release()` before sending the rest. */
function gatedBody(total: number, first: number) {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  let reachedGate!: () => void;
  const reached = new Promise<void>((resolve) => (reachedGate = resolve));
  const data = testBytes(total, 77);
  async function* body(): AsyncGenerator<Uint8Array> {
    for (let at = 0; at < total; at += 64 * 1024) {
      if (at >= first && at - 64 * 1024 < first) {
        reachedGate();
        await gate;
      }
      yield data.subarray(at, at + 64 * 1024);
    }
  }
  return { data, body: body(), release, reached };
}

describe.each(["database", "s3"] as const)("crash leftovers with %s storage", (backend) => {
  it("a SIGKILLed upload and seal leave leftovers the sweep reclaims after the grace period; nothing in use is touched", async () => {
    const shared = await openShared();
    const db = shared.db;
    const s3Env: Record<string, string> =
      backend === "s3"
        ? {
            STORAGE: "s3",
            S3_ENDPOINT: s3!.config.endpoint!,
            S3_BUCKET: s3!.config.bucket,
            S3_REGION: s3!.config.region,
            S3_ACCESS_KEY_ID: s3!.config.accessKeyId!,
            S3_SECRET_ACCESS_KEY: s3!.config.secretAccessKey!,
            S3_FORCE_PATH_STYLE: "true",
          }
        : {};
    let s3Store: ReturnType<typeof createS3FileStore> | undefined;
    if (backend === "s3") {
      s3Store = createS3FileStore(s3!.config);
      setFileStore(s3Store);
    }
    try {
      const store = await getFileStore();
      expect(store.kind).toBe(backend);

      // ——— What is in use: a template's document (its packages share it), a completed package's sealed files,
      // signature images, a library document; and a file outside the swept prefixes. ———
      const org = await createTestOrg(db());
      const key = (await createTestKey(db(), org)).value;
      const tpl = await createActiveTemplate(db(), org);
      const original = await makeOriginal(1);
      const documentKey = `documents/${tpl.documentId}/${newId("upl")}`;
      await store.put(documentKey, Readable.from([original]), { contentType: "application/pdf" });
      await db()
        .update(documents)
        .set({ storageKey: documentKey, fileSize: original.length, sha256: sha(original) })
        .where(eq(documents.id, tpl.documentId));
      const libraryId = newId("lib");
      await store.put(`library/${libraryId}`, Readable.from([original]), { contentType: "application/pdf" });
      await db()
        .insert(libraryDocuments)
        .values({
          id: libraryId,
          organisationId: org.organisationId,
          workspaceId: org.workspaceId,
          name: "NDA",
          fileSize: original.length,
          storageKey: `library/${libraryId}`,
          sha256: sha(original),
          pageCount: 1,
          pageSizes: [{ width: 612, height: 792 }],
        });
      await store.put("other/not-ours", Readable.from([Buffer.from("someone else's")]));

      const signedPackage = async (title: string) => {
        const { id: packageId } = await packageFromTemplate(key, { templateId: tpl.templateId, title });
        const sent = await callJson<{ data: { recipientSessions: { id: string }[] } }>(sendRoute, { key, params: { packageId }, body: {} });
        expect(sent.status).toBe(200);
        const [first, second] = sent.body.data.recipientSessions;
        const recipient = (sessionId: string) => ({ kind: "recipient" as const, sessionId, clientAddress: "203.0.113.9", userAgent: "Mozilla/5.0 (test)" });
        const imageKey = `signatures/${first!.id}/${newId("img")}.png`;
        await store.put(imageKey, Readable.from([makeSignaturePng()]), { contentType: "image/png" });
        await openSession(db(), recipient(first!.id));
        await db()
          .update(packageFields)
          .set({ valueStorageKey: imageKey, valueKind: "drawn" })
          .where(and(eq(packageFields.sessionId, first!.id), eq(packageFields.type, "signature")));
        await completeSession(db(), recipient(first!.id));
        await db().update(packageFields).set({ value: "Lars Landlord", valueKind: "typed" }).where(eq(packageFields.sessionId, second!.id));
        await completeSession(db(), recipient(second!.id));
        return packageId;
      };
      const completed = await signedPackage("Sealed before the crash");
      expect((await sealDuePackages(db())).map((r) => r.outcome)).toEqual(["sealed"]);
      expect(await db().select({ n: count() }).from(sealedFiles).where(eq(sealedFiles.packageId, completed))).toEqual([{ n: 3 }]);
      const sealing = await signedPackage("Sealing when the worker dies");

      // The upload the child will die in: 20 MB declared, on a template of its own (a DRAFT takes documents).
      const uploadTemplate = await createTestTemplate(db(), org);
      const added = await callJson<{ data: { document: { id: string }; uploadUrl: string } }>(templateDocuments.POST, {
        key,
        params: { templateId: uploadTemplate },
        body: { name: "Big.pdf", fileSize: 20_000_000 },
      });
      expect(added.status).toBe(201);
      const live = await contents(store);
      // The template's document, the library file, other/, a signature image per package, 3 sealed files.
      expect(live.size).toBe(8);
      expect([...live.keys()].filter((k) => k.startsWith("sealed/"))).toHaveLength(3);
      expect([...live.keys()].filter((k) => k.startsWith("signatures/"))).toHaveLength(2);

      // ——— The crash. ———
      const uploadsBefore = s3!.uploadIds();
      await shared.handOver();
      const crash = spawnCrashProcess(shared.childArg, { token: tokenOf(added.body.data.uploadUrl), stallAfter: CRASH_UPLOAD_BYTES }, s3Env);
      await Promise.all([crash.said("upload stalled"), crash.said("seal stalled")]);
      if (backend === "s3") {
        // The first 5 MiB part is stored once s3rver has written its checksum next to it.
        await expect.poll(() => s3!.uploadIds().filter((id) => !uploadsBefore.includes(id) && partStored(id)).length, { timeout: 30_000 }).toBe(1);
      }
      crash.child.kill("SIGKILL");
      expect(await crash.exited).toBe("SIGKILL");
      await shared.takeBack();

      // ——— 1. What it left. ———
      const named = db().select({ blobId: storedFiles.blobId }).from(storedFiles);
      const orphanChunks = async () =>
        (
          await db()
            .select({ n: count(), bytes: sql<number>`coalesce(sum(octet_length(${storedFileChunks.data})), 0)::int` })
            .from(storedFileChunks)
            .where(notInArray(storedFileChunks.blobId, named))
        )[0]!;
      const crashUploads = () => s3!.uploadIds().filter((id) => !uploadsBefore.includes(id));
      if (backend === "database") expect(await orphanChunks()).toEqual({ n: 32, bytes: CRASH_UPLOAD_BYTES });
      else expect(crashUploads()).toHaveLength(1);
      const [{ claim }] = (await db().select({ claim: packages.sealClaimToken }).from(packages).where(eq(packages.id, sealing))) as [{ claim: string | null }];
      expect(claim).toBeTruthy();
      const afterCrash = await contents(store);
      const deadSeal = [...afterCrash.keys()].filter((k) => !live.has(k));
      // The sealed document, the merged PDF and the certificate, under the dead claim's token.
      expect(deadSeal).toHaveLength(3);
      for (const k of deadSeal) expect(k.startsWith(`sealed/${sealing}/${claim}/`)).toBe(true);
      expect(await db().select({ n: count() }).from(sealedFiles).where(eq(sealedFiles.packageId, sealing))).toEqual([{ n: 0 }]);
      const [uploadDoc] = await db().select().from(documents).where(eq(documents.id, added.body.data.document.id));
      expect(uploadDoc).toMatchObject({ uploadState: "AWAITING_UPLOAD", storageKey: null });

      // ——— 2. Right away, nothing is old enough. ———
      await runFileSweep(db());
      expect(await contents(store)).toEqual(afterCrash);
      if (backend === "database") expect((await orphanChunks()).n).toBe(32);
      else expect(crashUploads()).toHaveLength(1);

      // ——— 3. 25 hours later, with an upload of "now" still running. ———
      const later = new Date(Date.now() + 25 * HOUR);
      setClock(() => later);
      const uploadsBeforeYoung = s3!.uploadIds();
      const young = gatedBody(7 * MiB, 6 * MiB);
      const youngKey = `documents/${added.body.data.document.id}/${newId("upl")}`;
      const youngPut = store.put(youngKey, young.body, { size: young.data.length });
      await young.reached;
      let youngUpload: string | undefined;
      if (backend === "s3") {
        await expect.poll(() => s3!.uploadIds().filter((id) => !uploadsBeforeYoung.includes(id) && partStored(id)).length, { timeout: 30_000 }).toBe(1);
        youngUpload = s3!.uploadIds().find((id) => !uploadsBeforeYoung.includes(id));
        // s3rver stamps the upload with the real time; it began "now", on the moved clock.
        s3!.setTime({ uploadId: youngUpload! }, later);
      } else {
        // 6 MiB sent: 24 chunks of 256 KiB, stamped with the moved clock.
        expect(await orphanChunks()).toEqual({ n: 32 + 24, bytes: CRASH_UPLOAD_BYTES + 6 * MiB });
      }

      await runFileSweep(db());
      if (backend === "database") expect(await orphanChunks()).toEqual({ n: 24, bytes: 6 * MiB });
      else expect(crashUploads()).toEqual([youngUpload]);
      // The dead seal's files stay while its package still holds that claim; everything in use is untouched.
      expect(await contents(store)).toEqual(afterCrash);
      // The running upload completes, whole.
      young.release();
      expect(await youngPut).toEqual({ size: 7 * MiB, sha256: sha(young.data) });
      expect((await readBytes(store, youngKey)).equals(young.data)).toBe(true);
      if (backend === "s3") s3!.setTime({ key: youngKey }, later);

      // ——— 4. The package is sealed again (its lease long expired): the dead seal's files are reclaimed. ———
      expect((await sealDuePackages(db())).map((r) => r.outcome)).toEqual(["sealed"]);
      const resealed = await contents(store);
      const newSeal = [...resealed.keys()].filter((k) => !afterCrash.has(k) && k !== youngKey);
      expect(newSeal).toHaveLength(3);
      for (const k of newSeal) expect(k.startsWith(`sealed/${sealing}/`) && !k.startsWith(`sealed/${sealing}/${claim}/`)).toBe(true);
      await runFileSweep(db());
      const final = await contents(store);
      expect(final).toEqual(new Map([...resealed].filter(([k]) => !deadSeal.includes(k))));
      expect([...final.keys()].filter((k) => live.has(k))).toEqual([...live.keys()]);
      if (backend === "database") expect(await orphanChunks()).toEqual({ n: 0, bytes: 0 });
      else expect(crashUploads()).toEqual([]);
      // A sweep with nothing left to do removes nothing.
      await runFileSweep(db());
      expect(await contents(store)).toEqual(final);
    } finally {
      s3Store?.client.destroy();
      await shared.close();
    }
  }, 300_000);
});
