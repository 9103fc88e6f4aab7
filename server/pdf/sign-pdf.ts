/**
 * Applies the one PAdES B-B signature (SubFilter ETSI.CAdES.detached, SHA-256, with the ESS
 * signing-certificate-v2 attribute) as an incremental update over the finished document, with @libpdf/core.
 * Nothing may be changed after this: every byte but the signature value is covered by its ByteRange.
 */
import { createHash } from "node:crypto";
import { PDF } from "@libpdf/core";
import { now } from "@/server/lib/clock";
import type { TSealedFile, TSigningIdentity } from "./types";

export async function signPdf(bytes: Uint8Array, identity: TSigningIdentity, options: { reason?: string; location?: string } = {}): Promise<TSealedFile> {
  const pdf = await PDF.load(bytes);
  const { bytes: signed } = await pdf.sign({
    signer: identity.signer,
    reason: options.reason ?? "Sealed on completion: any later change invalidates this signature",
    location: options.location,
    signingTime: now(),
    subFilter: "ETSI.CAdES.detached",
    level: "B-B",
    digestAlgorithm: "SHA-256",
    fieldName: "Foliosign seal",
  });
  return { bytes: signed, sha256: createHash("sha256").update(signed).digest("hex"), pages: pdf.getPageCount() };
}
