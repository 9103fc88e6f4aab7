/**
 * The evidence a sealed file carries (PAdES baseline levels, ETSI EN 319 142-1) and how to obtain it. The engine
 * never touches the database: callers (the sealing and evidence jobs) pass a TEvidenceConfig built from
 * TSA_URLS / TSA_TIMEOUT_MS and store the returned TEvidenceReport.
 */

/**
 * - B-B: the seal alone (its time is this server's clock, in the signature dictionary's /M);
 * - B-T: plus a trusted time-stamp over the signature (in the CMS, or a document time-stamp covering it);
 * - B-LT: plus a DSS with the certificates and revocation data needed to validate it offline;
 * - B-LTA: plus a document time-stamp over all of that (renewable before its TSA certificate expires).
 */
export type TEvidenceLevel = "B-B" | "B-T" | "B-LT" | "B-LTA";

export type TEvidenceConfig = {
  /** RFC 3161 endpoints tried in order; user:password in a URL is sent as Basic auth and never logged. */
  tsaUrls: string[];
  /** Per request (TSA, OCSP, CRL). Default 10 000. */
  tsaTimeoutMs?: number;
  /** Injected for tests; default globalThis.fetch. */
  fetch?: typeof fetch;
  /** Injected for tests; default server/lib/clock now(). Used for the signature dictionary's /M. */
  now?: () => Date;
};

export type TTimestampKind = "signature" | "document";

export type TEvidenceTimestamp = {
  kind: TTimestampKind;
  /** The TSA's genTime. */
  time: Date;
  /** Subject of the TSA certificate that signed the token, e.g. "CN=Example TSA, O=Example". */
  authority: string;
  tsaCertificateNotAfter: Date;
};

/** Alias used by the sealing job (20b). */
export type TFileEvidence = TEvidenceReport;

export type TEvidenceReport = {
  level: TEvidenceLevel;
  timestamps: TEvidenceTimestamp[];
  /** Why the file is below B-LTA although a TSA was configured (every TSA down, revocation data missing, …). */
  failure?: string;
};

export type TInspectedTimestamp = TEvidenceTimestamp & {
  checks: { imprint: boolean; signature: boolean; timeStampingEku: boolean };
  /** Every check passed (and the TSA certificate was valid at the token's time). */
  valid: boolean;
  /** Why a check failed. */
  problem?: string;
};

export type TEvidenceInspection = {
  level: TEvidenceLevel;
  timestamps: TInspectedTimestamp[];
  /** The DSS (catalog /DSS) arrays present in the file's latest revision. */
  dss: { certs: number; ocsps: number; crls: number } | null;
};

/** Thrown by upgradeEvidence / renewEvidence when no TSA answered with a usable token. Message is redacted. */
export class EvidenceUnavailableError extends Error {
  override name = "EvidenceUnavailableError";
}
