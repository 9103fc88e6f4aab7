/**
 * The long-term part of the evidence, with @libpdf/core's addArchivalData (one incremental update each time):
 * a DSS holding the certificates and the revocation data of every signature and time-stamp already in the file,
 * a /DocTimeStamp (ETSI.RFC3161) over all of it from our checked TSA client, then a DSS update for that
 * time-stamp's own chain. The revocation provider records which non-anchor certificates got no OCSP/CRL.
 */
import { X509Certificate } from "node:crypto";
import { PDF, PdfArray, PdfDict, PdfName, PdfStream, PlaceholderError } from "@libpdf/core";
import { createRevocationProvider, isSelfSigned, type TRevocationCache } from "./revocation";
import type { TTsaClient } from "./tsa-client";
import type { TEvidenceConfig } from "./types";

/** Room for a TSA token with its chain (RFC 3161 tokens are typically 2–6 KB) before any was seen. */
const DOC_TIMESTAMP_ROOM = 16_384;

/** What the files of one package share while sealing: revocation answers and the size of the TSA's tokens. */
export type TSealSession = { revocationCache: TRevocationCache; tokenBytes?: number };

export function createSealSession(): TSealSession {
  return { revocationCache: new Map() };
}

/** Room for a time-stamp token: the largest this package received plus a margin, else 16 KiB. */
export function timestampRoom(session?: TSealSession): number {
  return session?.tokenBytes ? session.tokenBytes + 2048 : DOC_TIMESTAMP_ROOM;
}

export type TArchiveRound = { bytes: Uint8Array; missingRevocation: string[] };

/** Throws (EvidenceUnavailableError from the TSA client) when no TSA answers; `bytes` is then unchanged. */
export async function archiveRound(bytes: Uint8Array, tsa: TTsaClient, config: TEvidenceConfig, cache?: TRevocationCache): Promise<TArchiveRound> {
  const revocation = createRevocationProvider({ timeoutMs: config.tsaTimeoutMs, fetch: config.fetch, now: config.now, cache });
  const pdf = await PDF.load(bytes);
  const result = await pdf.addArchivalData({ timestampAuthority: tsa, revocationProvider: revocation, estimatedSize: DOC_TIMESTAMP_ROOM });
  return { bytes: result.bytes, missingRevocation: revocation.missing() };
}

function issuedBy(cert: Uint8Array, candidate: Uint8Array): boolean {
  try {
    const c = new X509Certificate(cert);
    const i = new X509Certificate(candidate);
    return c.checkIssued(i) && c.verify(i.publicKey);
  } catch {
    return false;
  }
}

/**
 * The sealing path's archival step, in ONE incremental update (addArchivalData writes three and re-parses the
 * file after each): a DSS with `certificates` (the seal's chain and the signature time-stamp's TSA chain) and
 * OCSP/CRL for each that is not a trust anchor, and the /DocTimeStamp over it, placed by @libpdf/core's
 * addTimestamp (which saves our pending DSS in the same update). The document time-stamp's own validation data
 * is already in that DSS when the same TSA answered (the usual case); when another one did, a second update adds
 * it (addValidationData). Falls back to archiveRound for a file that already has a DSS (nothing to merge here).
 */
export async function sealArchive(
  bytes: Uint8Array,
  certificates: Uint8Array[],
  tsa: TTsaClient,
  config: TEvidenceConfig,
  session?: TSealSession,
): Promise<TArchiveRound> {
  const cache = session?.revocationCache;
  let pdf = await PDF.load(bytes);
  if (pdf.getCatalog().has("DSS")) return archiveRound(bytes, tsa, config, cache);
  const revocation = createRevocationProvider({ timeoutMs: config.tsaTimeoutMs, fetch: config.fetch, now: config.now, cache });
  const seen = new Set<string>();
  const certs = certificates.filter((c) => {
    const key = Buffer.from(c).toString("base64");
    return seen.has(key) ? false : (seen.add(key), true);
  });
  const ocsps: Uint8Array[] = [];
  const crls: Uint8Array[] = [];
  for (const cert of certs) {
    if (isSelfSigned(cert)) continue;
    const issuer = certs.find((c) => c !== cert && issuedBy(cert, c));
    const ocsp = issuer ? await revocation.getOCSP!(cert, issuer) : null;
    if (ocsp) ocsps.push(ocsp);
    else {
      const crl = await revocation.getCRL!(cert);
      if (crl) crls.push(crl);
    }
  }
  const addDss = () => {
    const streams = (list: Uint8Array[]) => new PdfArray(list.map((data) => pdf.context.register(new PdfStream(new PdfDict(), data))));
    const dss = PdfDict.of({ Type: PdfName.of("DSS"), Certs: streams([...certs, ...revocation.responderCertificates]) });
    if (ocsps.length) dss.set("OCSPs", streams(ocsps));
    if (crls.length) dss.set("CRLs", streams(crls));
    pdf.getCatalog().set("DSS", pdf.context.register(dss));
  };
  addDss();
  const before = tsa.issued.length;
  let out: Uint8Array;
  try {
    ({ bytes: out } = await pdf.addTimestamp({ timestampAuthority: tsa, estimatedSize: timestampRoom(session) }));
  } catch (error) {
    if (!(error instanceof PlaceholderError)) throw error;
    // A token larger than the room reserved (another TSA answered): place it again with the room it needs.
    pdf = await PDF.load(bytes);
    addDss();
    ({ bytes: out } = await pdf.addTimestamp({ timestampAuthority: tsa, estimatedSize: error.requiredSize + 2048 }));
  }
  const token = tsa.issued.at(-1)?.token;
  if (session && token) session.tokenBytes = Math.max(session.tokenBytes ?? 0, token.length);
  const docTsa = tsa.issued.length > before ? tsa.issued.at(-1)!.tsaCertificate : undefined;
  const missing = revocation.missing();
  if (docTsa && !certs.some((c) => Buffer.from(c).equals(Buffer.from(docTsa)))) {
    const more = createRevocationProvider({ timeoutMs: config.tsaTimeoutMs, fetch: config.fetch, now: config.now, cache });
    ({ bytes: out } = await pdf.addValidationData({ revocationProvider: more }));
    missing.push(...more.missing());
  }
  return { bytes: out, missingRevocation: [...new Set(missing)] };
}
