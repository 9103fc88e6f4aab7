/**
 * The long-term part of the evidence, with @libpdf/core's addArchivalData (one incremental update each time):
 * a DSS holding the certificates and the revocation data of every signature and time-stamp already in the file,
 * a /DocTimeStamp (ETSI.RFC3161) over all of it from our checked TSA client, then a DSS update for that
 * time-stamp's own chain. The revocation provider records which non-anchor certificates got no OCSP/CRL.
 */
import { PDF } from "@libpdf/core";
import { createRevocationProvider } from "./revocation";
import type { TTsaClient } from "./tsa-client";
import type { TEvidenceConfig } from "./types";

/** Room for a TSA token with its chain (RFC 3161 tokens are typically 2–6 KB). */
const DOC_TIMESTAMP_ROOM = 16_384;

export type TArchiveRound = { bytes: Uint8Array; missingRevocation: string[] };

/** Throws (EvidenceUnavailableError from the TSA client) when no TSA answers; `bytes` is then unchanged. */
export async function archiveRound(bytes: Uint8Array, tsa: TTsaClient, config: TEvidenceConfig): Promise<TArchiveRound> {
  const revocation = createRevocationProvider({ timeoutMs: config.tsaTimeoutMs, fetch: config.fetch, now: config.now });
  const pdf = await PDF.load(bytes);
  const result = await pdf.addArchivalData({ timestampAuthority: tsa, revocationProvider: revocation, estimatedSize: DOC_TIMESTAMP_ROOM });
  return { bytes: result.bytes, missingRevocation: revocation.missing() };
}
