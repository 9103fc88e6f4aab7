/**
 * Checks a PDF against this instance's seal, for the /verify page. Three independent answers:
 * - `signed`: it carries exactly one PDF signature (the seal; document time-stamps aside) with a parseable CMS
 *   SignedData;
 * - `intact`: that signature's ByteRange covers the whole file except the signature value — or, for a file with
 *   PAdES evidence added after the seal (DSS, document time-stamps), the whole sealed revision, every later
 *   document time-stamp verifies over its own ranges, and those updates change nothing but evidence
 *   (evidence/evidence-only-updates.ts) — the digest of the covered bytes equals the signed messageDigest, and
 *   the signature over the signed attributes verifies with the signer's certificate carried in the CMS;
 * - `signerMatches`: the signer's certificate is one of `trusted` (this instance's current and past ones).
 * Hostile or broken input yields `false`s, never an exception.
 */
import { constants, createHash, timingSafeEqual, verify, X509Certificate } from "node:crypto";
import * as asn1js from "asn1js";
import * as pkijs from "pkijs";
import { evidenceOnlyUpdates } from "./evidence/evidence-only-updates";
import { checkDocumentTimestamp, findSignatures } from "./evidence/inspect-evidence";
import { signedBytes } from "./evidence/strict-cms";

export type TVerifyResult = { signed: boolean; intact: boolean; signerMatches: boolean; reason?: string };

const OID_SIGNED_DATA = "1.2.840.113549.1.7.2";
const OID_MESSAGE_DIGEST = "1.2.840.113549.1.9.4";
const OID_RSA_PSS = "1.2.840.113549.1.1.10";
const DIGESTS: Record<string, string> = {
  "2.16.840.1.101.3.4.2.1": "sha256",
  "2.16.840.1.101.3.4.2.2": "sha384",
  "2.16.840.1.101.3.4.2.3": "sha512",
};

function findByteRanges(text: string): number[][] {
  const ranges: number[][] = [];
  const re = /\/ByteRange\s*\[\s*(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s*\]/g;
  for (let m = re.exec(text); m; m = re.exec(text)) ranges.push([m[1], m[2], m[3], m[4]].map(Number));
  return ranges;
}

/**
 * Document time-stamps appended after the seal: each must verify over its own byte ranges, and the updates after
 * the seal must add evidence only. Returns a problem, or null. `sealEnd`: where the sealed revision ends.
 */
async function checkEvidenceAfterSeal(bytes: Uint8Array, sealEnd: number): Promise<string | null> {
  const stamps = findSignatures(bytes).filter((s) => s.kind === "document");
  if (stamps.length === 0 || stamps.some((s) => s.end <= sealEnd)) return "the signature does not cover the whole file";
  for (const s of stamps) {
    const check = checkDocumentTimestamp(bytes, s);
    if (!check.ok) return `a document time-stamp after the seal does not verify (${check.problem})`;
  }
  // After the newest document time-stamp only a final update (its validation data) may follow, ending the file.
  const last = stamps[stamps.length - 1]!;
  const rest = Buffer.from(bytes.subarray(last.end)).toString("latin1");
  if (rest.length > 0 && !/%%EOF\s*$/.test(rest)) return "the file continues after its last update";
  return evidenceOnlyUpdates(bytes, sealEnd);
}

/** The certificate as it was carried (toSchema(false) keeps the original TBS bytes rather than re-encoding them). */
function signerDer(cert: pkijs.Certificate): Uint8Array {
  return new Uint8Array(cert.toSchema(false).toBER(false));
}

function equalBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && timingSafeEqual(a, b);
}

export async function verifySealed(bytes: Uint8Array, trusted: Uint8Array[]): Promise<TVerifyResult> {
  const no = (signed: boolean, reason: string): TVerifyResult => ({ signed, intact: false, signerMatches: false, reason });
  try {
    // latin1 keeps one character per byte, so string offsets are byte offsets.
    const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("latin1");
    const ranges = findByteRanges(text);
    if (ranges.length === 0) return no(false, "no signature");
    // Our seal is the only signature (document time-stamps aside); another one means the file was re-signed.
    const found = findSignatures(bytes);
    const onlyTimestampsAfter = found.length === ranges.length && found[0]?.kind === "seal" && found.slice(1).every((f) => f.kind === "document");
    if (ranges.length > 1 && !onlyTimestampsAfter) return no(true, "more than one signature");
    const [a, b, c, d] = (found.find((f) => f.kind === "seal")?.byteRange ?? ranges[0]) as [number, number, number, number];
    // The signature value sits between the two ranges as <hex>; anything else there is outside the signature.
    const gap = text.slice(a + b, c);
    if (!/^<[0-9a-fA-F]*>$/.test(gap)) return no(false, "the signature value is not where the ByteRange says");
    const cms = Buffer.from(gap.slice(1, -1), "hex");
    const asn1 = asn1js.fromBER(new Uint8Array(cms).buffer);
    if (asn1.offset === -1) return no(false, "the signature is not DER");
    const info = new pkijs.ContentInfo({ schema: asn1.result });
    if (info.contentType !== OID_SIGNED_DATA) return no(false, "the signature is not CMS SignedData");
    const signedData = new pkijs.SignedData({ schema: info.content });
    const signerInfo = signedData.signerInfos[0];
    if (!signerInfo || signedData.signerInfos.length !== 1) return no(false, "not exactly one signer");

    const coversRevision = a === 0 && b > 0 && c > b && c + d <= bytes.length;
    const evidenceProblem = coversRevision && c + d < bytes.length ? await checkEvidenceAfterSeal(bytes, c + d) : null;
    const coversAll = coversRevision && !evidenceProblem;
    const covered = signedBytes(bytes, [a, b, c, d]);
    const algorithm = DIGESTS[signerInfo.digestAlgorithm.algorithmId];
    const digestAttr = signerInfo.signedAttrs?.attributes.find((x) => x.type === OID_MESSAGE_DIGEST);
    const signedDigest = digestAttr?.values[0] instanceof asn1js.OctetString ? digestAttr.values[0].valueBlock.valueHexView : null;
    const digestMatches = Boolean(algorithm && signedDigest) && equalBytes(createHash(algorithm!).update(covered).digest(), new Uint8Array(signedDigest!));
    const signerCert = signedData.certificates?.find(
      (cert): cert is pkijs.Certificate =>
        cert instanceof pkijs.Certificate &&
        signerInfo.sid instanceof pkijs.IssuerAndSerialNumber &&
        cert.serialNumber.isEqual(signerInfo.sid.serialNumber) &&
        cert.issuer.isEqual(signerInfo.sid.issuer),
    );
    // The signature is checked with node:crypto, not pkijs's SignedData.verify: @libpdf/core installs its own
    // pkijs crypto engine process-wide, under which pkijs fails on ECDSA keys.
    let signatureValid = false;
    if (digestMatches && signerCert && algorithm && signerInfo.signedAttrs) {
      const attrs = new Uint8Array(signerInfo.signedAttrs.encodedValue.slice(0));
      attrs[0] = 0x31; // signed over as an explicit SET OF, not the [0] IMPLICIT tag it is stored under
      const key = new X509Certificate(signerDer(signerCert)).publicKey;
      const sigAlg = signerInfo.signatureAlgorithm.algorithmId;
      const signature = new Uint8Array(signerInfo.signature.valueBlock.valueHexView);
      const options = sigAlg === OID_RSA_PSS ? { key, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: constants.RSA_PSS_SALTLEN_AUTO } : key;
      signatureValid = verify(algorithm, attrs, options, signature);
    }
    const der = signerCert ? signerDer(signerCert) : null;
    const signerMatches = Boolean(der && trusted.some((t) => equalBytes(t, der)));
    const intact = coversAll && digestMatches && signatureValid;
    const reason = !coversAll
      ? (evidenceProblem ?? "the signature does not cover the whole file")
      : !digestMatches
        ? "the file was changed after it was signed"
        : !signatureValid
          ? "the signature value does not verify"
          : undefined;
    return { signed: true, intact, signerMatches, ...(reason ? { reason } : {}) };
  } catch {
    return no(false, "the signature could not be read");
  }
}
