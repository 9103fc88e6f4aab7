import type { Readable } from "node:stream";
import { ZipFile } from "yazl";
import type { Db } from "@/server/db/client";
import { getFileStore } from "@/server/storage/get-file-store";
import { findSealedFiles } from "./find-sealed-files";
import type { TPackageActor } from "./package-actor";
import type { TPackageRef } from "./schemas";

export type TZipDownload = { name: string; size: number | null; body: Readable };

function safeName(name: string): string {
  const base = name.replace(/[/\\\u0000-\u001f]/g, "_").trim() || "document";
  return base.toLowerCase().endsWith(".pdf") ? base : `${base}.pdf`;
}

/**
 * A zip of every sealed document and the certificate (op 24), streamed: each entry's stream is opened from the
 * store only when the zip reaches it, and entries are stored uncompressed (PDFs are compressed already), which
 * also makes the zip's total size known in advance for Content-Length.
 */
export async function openSealedZip(db: Db, actor: TPackageActor, input: TPackageRef): Promise<TZipDownload> {
  const { pkg, files } = await findSealedFiles(db, actor, input.packageId);
  const store = await getFileStore();
  const zip = new ZipFile();
  const used = new Set<string>();
  const entries = [...files.filter((f) => f.kind === "document").sort((a, b) => a.position - b.position), ...files.filter((f) => f.kind === "certificate")];
  for (const file of entries) {
    let name = safeName(file.kind === "certificate" ? "certificate.pdf" : file.name);
    for (let n = 2; used.has(name.toLowerCase()); n++) name = safeName(`${safeName(file.name).slice(0, -4)} (${n})`);
    used.add(name.toLowerCase());
    zip.addReadStreamLazy(name, { size: file.size, compress: false, mtime: pkg.completedAt ?? file.createdAt }, (cb) => {
      store.get(file.storageKey).then(
        (stored) => {
          // yazl pipes a lazy entry's stream without listening for its errors: forward them, or one failed read
          // would be an uncaught exception that ends the process.
          stored.body.on("error", (err) => zip.emit("error", err));
          cb(null, stored.body);
        },
        (err: unknown) => cb(err, undefined as unknown as NodeJS.ReadableStream),
      );
    });
  }
  // A store that fails mid-zip ends the download with an error rather than a truncated file that looks whole.
  zip.on("error", (err: Error) => (zip.outputStream as Readable).destroy(err));
  let size: number | null = null;
  // Called synchronously by end() when every entry's size is known (uncompressed entries with a size): the
  // total goes into Content-Length. @types/yazl declares the callback without its argument.
  const onTotal = (total: number) => {
    size = total >= 0 ? total : null;
  };
  zip.end({ forceZip64Format: false, comment: "" }, onTotal as unknown as () => void);
  return { name: `${safeName(pkg.title).slice(0, -4)}.zip`, size, body: zip.outputStream as Readable };
}
