/**
 * Every output of a completed package, in the order that lets each certificate print the most hashes:
 * 1. each document: original + values, flattened, + certificate, signed (its own file);
 * 2. the merged PDF: every stamped document, then a certificate that lists each document's sealed SHA-256,
 *    signed once;
 * 3. the certificate alone, listing the sealed SHA-256 of every document and of the merged PDF, signed.
 * A file never holds its own hash; the caller stores every returned sha256 for the /verify lookup.
 */
import { createHash } from "node:crypto";
import { PDFDocument } from "pdf-lib";
import { renderCertificate } from "./render-certificate";
import { appendPdf } from "./append-pdf";
import { createSealSession } from "./evidence/archive";
import { signPdf } from "./sign-pdf";
import { stampDocument } from "./stamp-document";
import { markTestPages } from "./test-mark";
import type { TEvidenceConfig, TEvidenceReport } from "./evidence/types";
import type { TCertificateData, TCertificateEvidence, TSealDocumentInput, TSealedFile, TSigningIdentity } from "./types";

export type TSealPackageInput = {
  documents: TSealDocumentInput[];
  /** Everything but the documents' hashes and page counts and the evidence rows, which are computed here. */
  certificate: Omit<TCertificateData, "documents" | "mergedSha256" | "evidence">;
  identity: TSigningIdentity;
};

type TEvidenced = TSealedFile & { evidence: TEvidenceReport };

export type TSealPackageResult = {
  documents: (TEvidenced & { id: string; name: string; originalSha256: string; documentPages: number })[];
  merged: TEvidenced;
  certificate: TEvidenced;
};

export type TSealPackageOptions = {
  signal?: AbortSignal;
  /** A TSA configured: every output aims at PAdES B-LTA (see sign-pdf.ts); null/absent: B-B. */
  evidence?: TEvidenceConfig | null;
  /** A test workspace's package: every page of every output carries TEST_MARK (./test-mark.ts) under the seal. */
  testMark?: boolean;
};

const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

/**
 * `signal`: checked before each step (a document stamped, signed, merged), so an abandoned seal stops early.
 * `evidence`: passed to every signPdf; each output carries its own `evidence` report. The certificates of
 * completion state the evidence targeted and, on the merged PDF's and the standalone one, the trusted times
 * the document seals already received (a file cannot carry its own time-stamp's time).
 */
export async function sealPackage(input: TSealPackageInput, options: TSealPackageOptions = {}): Promise<TSealPackageResult> {
  const step = () => options.signal?.throwIfAborted();
  const session = createSealSession();
  const signAsIs = (bytes: Uint8Array) => signPdf(bytes, input.identity, { evidence: options.evidence, session });
  // Every output is signed exactly once, so marking here marks each page of each file once, before its seal.
  const sign = options.testMark ? async (bytes: Uint8Array) => signAsIs(await markTestPages(bytes)) : signAsIs;
  const stamped: { doc: TSealDocumentInput; bytes: Uint8Array; pages: number; originalSha256: string }[] = [];
  for (const doc of input.documents) {
    step();
    const pdf = await stampDocument(doc.original, doc.fields);
    stamped.push({ doc, bytes: await pdf.save(), pages: pdf.getPageCount(), originalSha256: sha256(doc.original) });
  }
  const listing = stamped.map((s) => ({ name: s.doc.name, pages: s.pages, originalSha256: s.originalSha256 }));

  // The certificates' "Evidence" rows: the level aimed at, then the trusted times of files already sealed.
  const target = options.evidence?.tsaUrls.length ? "B-LTA" : "B-B";
  const evidenceOf = (sealed: { name: string; evidence: TEvidenceReport }[]): TCertificateEvidence => ({
    level: target,
    timestamps: sealed.flatMap((f) => {
      const t = f.evidence.timestamps.find((x) => x.kind === "signature") ?? f.evidence.timestamps[0];
      return t ? [{ documentName: f.name, time: t.time, authority: t.authority }] : [];
    }),
    pending: target === "B-B" ? [] : sealed.filter((f) => f.evidence.timestamps.length === 0).map((f) => f.name),
  });
  const plainCertificate = await renderCertificate({ ...input.certificate, documents: listing, evidence: evidenceOf([]) });
  const documents: TSealPackageResult["documents"] = [];
  for (const s of stamped) {
    step();
    const pdf = await PDFDocument.load(s.bytes, { updateMetadata: false });
    await appendPdf(pdf, plainCertificate);
    const sealed = await sign(await pdf.save());
    documents.push({ ...sealed, id: s.doc.id, name: s.doc.name, originalSha256: s.originalSha256, documentPages: s.pages });
  }

  step();
  const withSealed = listing.map((d, i) => ({ ...d, sealedSha256: documents[i]!.sha256 }));
  const merged = await PDFDocument.create({ updateMetadata: false });
  merged.setTitle(input.certificate.packageTitle);
  for (const s of stamped) await appendPdf(merged, s.bytes);
  await appendPdf(merged, await renderCertificate({ ...input.certificate, documents: withSealed, evidence: evidenceOf(documents) }));
  const mergedSealed = await sign(await merged.save());
  step();

  const certificate = await sign(
    await renderCertificate({
      ...input.certificate,
      documents: withSealed,
      mergedSha256: mergedSealed.sha256,
      evidence: evidenceOf([...documents, { name: "Merged PDF", evidence: mergedSealed.evidence }]),
    }),
  );
  return { documents, merged: mergedSealed, certificate };
}
