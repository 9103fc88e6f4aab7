/**
 * One sealed document: the original with every stored value drawn and its form flattened, the certificate of
 * completion appended, then one PAdES signature over the whole file. The original bytes are never modified.
 */
import { appendPdf } from "./append-pdf";
import { renderCertificate } from "./render-certificate";
import { signPdf } from "./sign-pdf";
import { stampDocument } from "./stamp-document";
import type { TEvidenceConfig, TEvidenceReport } from "./evidence/types";
import type { TCertificateData, TSealDocumentInput, TSealedFile, TSigningIdentity } from "./types";

export type TSealPdfInput = {
  document: Pick<TSealDocumentInput, "original" | "fields"> & Partial<TSealDocumentInput>;
  /** The certificate of completion to append (rendered here); omit to seal the document alone. */
  certificate?: TCertificateData;
  identity: TSigningIdentity;
  /** A TSA configured: aim at PAdES B-LTA (sign-pdf.ts). */
  evidence?: TEvidenceConfig | null;
};

export async function sealPdf(input: TSealPdfInput): Promise<TSealedFile & { evidence: TEvidenceReport }> {
  const doc = await stampDocument(input.document.original, input.document.fields);
  if (input.certificate) await appendPdf(doc, await renderCertificate(input.certificate));
  return signPdf(await doc.save(), input.identity, { evidence: input.evidence });
}
