/**
 * Applies the one seal (SubFilter ETSI.CAdES.detached, SHA-256) as an incremental update over the finished
 * document, strictly PAdES: the CMS signed attributes are exactly contentType, messageDigest,
 * signingCertificateV2 and CMSAlgorithmProtection; the signing time is the signature dictionary's /M
 * (evidence/strict-cms.ts). Nothing may be changed after this but evidence appended by incremental updates.
 *
 * With `evidence` (a TSA configured) the file goes on to PAdES B-LTA: a signature time-stamp in the CMS, a DSS
 * with the certificates and revocation data, a document time-stamp over it all (evidence/archive.ts). A TSA that
 * is down never fails the seal: the file returned is the best level reached (B-B, or B-T when only the
 * document time-stamp failed) and `evidence.failure` says why; upgradeEvidence finishes it later.
 */
import { createHash } from "node:crypto";
import { PDF } from "@libpdf/core";
import { now } from "@/server/lib/clock";
import { sealArchive, timestampRoom, type TSealSession } from "./evidence/archive";
import { PlaceholderTooSmallError, placeholderSigner, writeStrictCms, type TStrictSignResult } from "./evidence/strict-cms";
import { createTsaClient } from "./evidence/tsa-client";
import type { TEvidenceConfig, TEvidenceReport, TEvidenceTimestamp } from "./evidence/types";
import type { TSealedFile, TSigningIdentity } from "./types";

export type TSignPdfOptions = {
  reason?: string;
  location?: string;
  evidence?: TEvidenceConfig | null;
  /** Shared by the files of one package (sealPackage passes one): revocation answers, the TSA's token size. */
  session?: TSealSession;
};

/**
 * Contents placeholder: the CMS with the certificate chain, plus room for a signature time-stamp token — the
 * size of the last token this package received plus a margin, or 16 KiB for the first. Every placeholder byte
 * is two hex digits that each later parse of the file reads, so it is not made bigger than needed; a token that
 * does not fit makes signPdf place the signature again with the room it needs.
 */
function placeholderSize(identity: TSigningIdentity, withTimestamp: boolean, session?: TSealSession): number {
  const chain = [identity.signer.certificate, ...(identity.signer.certificateChain ?? [])].reduce((n, c) => n + c.length, 0);
  return 2048 + chain + (withTimestamp ? timestampRoom(session) : 0);
}

export async function signPdf(
  bytes: Uint8Array,
  identity: TSigningIdentity,
  options: TSignPdfOptions = {},
): Promise<TSealedFile & { evidence: TEvidenceReport }> {
  const config = options.evidence?.tsaUrls.length ? options.evidence : null;
  const tsa = config ? createTsaClient(config) : null;
  const signingTime = config?.now?.() ?? now();
  let estimatedSize = placeholderSize(identity, Boolean(tsa), options.session);
  let pages = 0;
  let strict: TStrictSignResult | null = null;
  for (let attempt = 0; !strict; attempt++) {
    const pdf = await PDF.load(bytes);
    pages = pdf.getPageCount();
    const { bytes: placed } = await pdf.sign({
      signer: placeholderSigner(identity.signer),
      reason: options.reason ?? "Sealed on completion: any later change invalidates this signature",
      location: options.location,
      signingTime,
      subFilter: "ETSI.CAdES.detached",
      level: "B-B",
      digestAlgorithm: "SHA-256",
      fieldName: "Foliosign seal",
      estimatedSize,
    });
    try {
      strict = await writeStrictCms(placed, identity.signer, tsa);
    } catch (error) {
      if (!(error instanceof PlaceholderTooSmallError) || attempt > 0) throw error;
      estimatedSize = error.needed + 2048;
    }
  }
  if (strict.timestampToken && options.session) options.session.tokenBytes = Math.max(options.session.tokenBytes ?? 0, strict.timestampToken.length);
  let signed = strict.bytes;
  const timestamps: TEvidenceTimestamp[] = [];
  const stamp = (kind: TEvidenceTimestamp["kind"]) => {
    const t = tsa!.issued[tsa!.issued.length - 1]!;
    timestamps.push({ kind, time: t.time, authority: t.authority, tsaCertificateNotAfter: t.tsaCertificateNotAfter });
  };
  let evidence: TEvidenceReport = { level: "B-B", timestamps };
  if (tsa && strict.timestampToken) {
    stamp("signature");
    try {
      const sealCertificates = [identity.signer.certificate, ...(identity.signer.certificateChain ?? [])];
      const round = await sealArchive(signed, [...sealCertificates, ...tsa.issued.at(-1)!.certificates], tsa, config!, options.session);
      signed = round.bytes;
      stamp("document");
      evidence =
        round.missingRevocation.length === 0
          ? { level: "B-LTA", timestamps }
          : { level: "B-T", timestamps, failure: `no revocation data (OCSP or CRL) for: ${round.missingRevocation.join("; ")}` };
    } catch (error) {
      evidence = { level: "B-T", timestamps, failure: (error as Error).message };
    }
  } else if (tsa) {
    evidence = { level: "B-B", timestamps, failure: strict.timestampFailure ?? "no signature time-stamp" };
  }
  return { bytes: signed, sha256: createHash("sha256").update(signed).digest("hex"), pages, evidence };
}
