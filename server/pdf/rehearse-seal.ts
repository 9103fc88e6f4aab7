/**
 * The sealer's dry run on an original, for the upload check (server/documents-io/inspect-file.ts): every step
 * sealing takes with a document's own bytes, with the same library calls, so that a file the sealer could
 * never process is refused at upload instead of failing at every seal attempt once everyone has signed.
 *
 * - `stampDocument` (pdf-lib) opens it, flattens its form and draws a mark on EVERY page — which reads each
 *   page's inherited boxes and rotation through its /Parent chain and adds to its content, as drawing a value
 *   does (a page tree that contains itself overflows pdf-lib's stack here);
 * - its pages are copied into a new document (what `appendPdf` does for the merged PDF: pdf-lib's object
 *   copier, which recurses through everything a page reaches), which is saved (pdf-lib's writer) and signed
 *   with @libpdf/core (`signPdf`) by a throwaway identity made once per process.
 *
 * Not repeated: saving the whole stamped document and reading it back, as the per-document file does. That
 * costs as much again as opening it (measured: 25 s more for a 22 MB file of 350,000 small objects, which the
 * parser takes at about 25,000 a second) and adds nothing the steps above have not tried — the writer handles
 * one object at a time and has just written every object a page reaches, and @libpdf/core has already read
 * the original.
 *
 * It also insists that pdf-lib sees exactly the pages the inspector counted: fields are placed on the pages
 * the inspector reported, and the sealer draws them on pdf-lib's pages, so a file the two libraries read
 * differently (the same page listed twice, a page pdf-lib cannot parse) would be sealed unlike what was signed.
 *
 * What it leaves out is independent of the original: the certificate pages (our own) and the fonts (a field's
 * text; a tick is drawn with two lines). Any throw means "cannot be sealed"; the caller words the refusal.
 */
import { webcrypto } from "node:crypto";
import { CryptoKeySigner } from "@libpdf/core";
import { PDFDocument } from "pdf-lib";
import { createInstanceCertificate } from "./create-instance-certificate";
import { SealingError } from "./sealing-error";
import { signPdf } from "./sign-pdf";
import { stampDocument } from "./stamp-document";
import type { TSealField, TSigningIdentity } from "./types";

let identity: Promise<TSigningIdentity> | undefined;

/** A throwaway self-signed identity: the rehearsal's signatures are never kept. */
function rehearsalIdentity(): Promise<TSigningIdentity> {
  identity ??= (async () => {
    const made = await createInstanceCertificate("Foliosign upload check", new Date());
    const key = await webcrypto.subtle.importKey("pkcs8", made.privateKeyPkcs8, { name: "ECDSA", namedCurve: "P-256" }, false, ["sign"]);
    return {
      signer: new CryptoKeySigner(key as unknown as CryptoKey, made.certificateDer, "EC", "ECDSA"),
      certificateDer: made.certificateDer,
      source: "instance" as const,
      subject: "CN=Foliosign upload check",
      notAfter: made.notAfter,
      fingerprintSha256: "",
    };
  })();
  return identity;
}

/** Runs the seal's steps on `original`, whose pages the inspector counted as `pageCount`; throws if any fails. */
export async function rehearseSeal(original: Uint8Array, pageCount: number): Promise<void> {
  const marks: TSealField[] = Array.from({ length: pageCount }, (_, pageIndex) => ({
    type: "checkbox",
    checked: true,
    pageIndex,
    x: 0,
    y: 0,
    width: 1,
    height: 1,
  }));
  const stamped = await stampDocument(original, marks);
  if (stamped.getPageCount() !== pageCount) {
    throw new SealingError(`pdf-lib reads ${stamped.getPageCount()} pages where the inspector counted ${pageCount}`);
  }
  const merged = await PDFDocument.create({ updateMetadata: false });
  for (const page of await merged.copyPages(stamped, stamped.getPageIndices())) merged.addPage(page);
  await signPdf(await merged.save(), await rehearsalIdentity());
}
