/**
 * The evidence interface of the PDF engine (issue 20), for the sealing and evidence jobs and /verify.
 * See docs/decisions/pades-evidence.md.
 *
 * - signPdf(bytes, identity, { evidence }) / sealPackage(input, { signal, evidence }): seal; with a TSA, every
 *   output reaches B-LTA, or the best level reached plus `evidence.failure` when the TSA is down (never throws
 *   because of the TSA).
 * - upgradeEvidence(bytes, config): B-B/B-T → B-LTA by incremental updates (old bytes are a prefix).
 * - renewEvidence(bytes, config): fresh validation data + a new document time-stamp (incremental).
 * - inspectEvidence(bytes): level and every time-stamp, each token checked on its own.
 */
export { inspectEvidence } from "./inspect-evidence";
export { renewEvidence, upgradeEvidence } from "./upgrade-evidence";
// The other types (TEvidenceLevel, TEvidenceReport, TEvidenceInspection, …) are in ./types.
export { EvidenceUnavailableError, type TEvidenceConfig, type TFileEvidence } from "./types";
