/**
 * Later evidence for a file already sealed, always as incremental updates appended to it: the file given is a
 * byte-for-byte prefix of the result, so its seal (and any earlier time-stamp) stays valid and a copy downloaded
 * before still matches its recorded SHA-256.
 *
 * upgradeEvidence (a B-B or B-T seal whose TSA was down): the signature's CMS cannot gain a time-stamp without
 * rewriting its /Contents (which would change the file's bytes), so the first document time-stamp plays the
 * signature time-stamp's part (EN 319 142-1 §5.4): round 1 = DSS + document time-stamp + DSS for its chain
 * (B-LT), round 2 = a second document time-stamp over that (B-LTA). A B-T file needs round 2 only.
 * renewEvidence: one round — fresh validation data for everything in the file and a new document time-stamp,
 * done before the newest document time-stamp's TSA certificate expires.
 * Both throw EvidenceUnavailableError when no TSA answers before anything was added; if the TSA fails between the
 * rounds the file with round 1 is returned (B-LT) with `evidence.failure`.
 */
import { archiveRound } from "./archive";
import { inspectEvidence } from "./inspect-evidence";
import type { TRevocationCache } from "./revocation";
import { createTsaClient } from "./tsa-client";
import { EvidenceUnavailableError, type TEvidenceConfig, type TEvidenceReport } from "./types";

export type TEvidenceResult = { bytes: Uint8Array; evidence: TEvidenceReport };

function requireTsa(config: TEvidenceConfig | null | undefined): asserts config is TEvidenceConfig {
  if (!config || config.tsaUrls.length === 0) throw new EvidenceUnavailableError("no time-stamping authority is configured");
}

async function report(bytes: Uint8Array, missing: string[], failure?: string): Promise<TEvidenceResult> {
  const found = await inspectEvidence(bytes);
  const problems = [...(failure ? [failure] : []), ...(missing.length ? [`no revocation data (OCSP or CRL) for: ${missing.join("; ")}`] : [])];
  const level = missing.length && found.level !== "B-B" ? "B-T" : found.level;
  return {
    bytes,
    evidence: {
      level,
      timestamps: found.timestamps
        .filter((t) => t.valid)
        .map(({ kind, time, authority, tsaCertificateNotAfter }) => ({ kind, time, authority, tsaCertificateNotAfter })),
      ...(problems.length ? { failure: problems.join("; ") } : {}),
    },
  };
}

async function round(bytes: Uint8Array, config: TEvidenceConfig, cache: TRevocationCache) {
  try {
    return await archiveRound(bytes, createTsaClient(config), config, cache);
  } catch (error) {
    if (error instanceof EvidenceUnavailableError) throw error;
    throw new EvidenceUnavailableError(`the evidence could not be added: ${(error as Error).message}`);
  }
}

export async function upgradeEvidence(sealed: Uint8Array, config: TEvidenceConfig): Promise<TEvidenceResult> {
  requireTsa(config);
  const before = await inspectEvidence(sealed);
  if (before.level === "B-LTA") return report(sealed, []);
  const hasSignatureStamp = before.level !== "B-B";
  let bytes = sealed;
  const missing: string[] = [];
  const cache: TRevocationCache = new Map();
  if (!hasSignatureStamp) {
    const first = await round(bytes, config, cache);
    bytes = first.bytes;
    missing.push(...first.missingRevocation);
  }
  try {
    const second = await round(bytes, config, cache);
    return report(second.bytes, second.missingRevocation);
  } catch (error) {
    if (bytes === sealed) throw error;
    return report(bytes, missing, (error as Error).message);
  }
}

export async function renewEvidence(bytes: Uint8Array, config: TEvidenceConfig): Promise<TEvidenceResult> {
  requireTsa(config);
  const next = await round(bytes, config, new Map());
  return report(next.bytes, next.missingRevocation);
}
