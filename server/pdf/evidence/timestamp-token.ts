/**
 * Reads and checks one RFC 3161 time-stamp token (a CMS SignedData over a TSTInfo) on its own, without trusting
 * the TSA: the imprint is the one we expected, the token's signature verifies with the certificate it names, the
 * signed attributes bind the TSTInfo (messageDigest) and that certificate (ESS signingCertificate / V2), and the
 * certificate carries the critical timeStamping extended key usage and was valid at genTime.
 * Used by the TSA client (every answer, before use) and by inspectEvidence (every token in a file).
 * Signatures are checked with node:crypto: @libpdf/core installs its own pkijs engine process-wide.
 */
import { constants, createHash, timingSafeEqual, verify, X509Certificate } from "node:crypto";
import * as asn1js from "asn1js";
import * as pkijs from "pkijs";

export const OID = {
  signedData: "1.2.840.113549.1.7.2",
  tstInfo: "1.2.840.113549.1.9.16.1.4",
  contentType: "1.2.840.113549.1.9.3",
  messageDigest: "1.2.840.113549.1.9.4",
  signingTime: "1.2.840.113549.1.9.5",
  signingCertificate: "1.2.840.113549.1.9.16.2.12",
  signingCertificateV2: "1.2.840.113549.1.9.16.2.47",
  cmsAlgorithmProtection: "1.2.840.113549.1.9.52",
  timeStampToken: "1.2.840.113549.1.9.16.2.14",
  extKeyUsage: "2.5.29.37",
  timeStamping: "1.3.6.1.5.5.7.3.8",
  rsaPss: "1.2.840.113549.1.1.10",
  sha256: "2.16.840.1.101.3.4.2.1",
} as const;

export const DIGEST_BY_OID: Record<string, "sha1" | "sha256" | "sha384" | "sha512"> = {
  "1.3.14.3.2.26": "sha1",
  "2.16.840.1.101.3.4.2.1": "sha256",
  "2.16.840.1.101.3.4.2.2": "sha384",
  "2.16.840.1.101.3.4.2.3": "sha512",
};

export type TTokenCheck = {
  ok: boolean;
  /** The first problem found, in words; absent when ok. */
  problem?: string;
  checks: { imprint: boolean; signature: boolean; timeStampingEku: boolean };
  time?: Date;
  authority?: string;
  tsaCertificateNotAfter?: Date;
  /** DER of the TSA certificate (for the DSS and the report). */
  tsaCertificate?: Uint8Array;
  /** DER of every certificate the token carries (the TSA's chain, for the DSS). */
  certificates?: Uint8Array[];
  nonce?: bigint;
};

const bytesOf = (view: ArrayBuffer | Uint8Array) => (view instanceof Uint8Array ? view : new Uint8Array(view));
const same = (a: Uint8Array, b: Uint8Array) => a.length === b.length && timingSafeEqual(a, b);
const toBigInt = (i: asn1js.Integer) => BigInt(`0x${Buffer.from(i.valueBlock.valueHexView).toString("hex") || "0"}`);

/** DER of a certificate as carried (pkijs keeps the original TBS bytes with toSchema(false)). */
export function certificateDer(cert: pkijs.Certificate): Uint8Array {
  return new Uint8Array(cert.toSchema(false).toBER(false));
}

/**
 * A token's SignedData without its certificates (pkijs's schema-checking parse of every certificate is most of
 * the cost of reading a token), and the certificates as the exact DER bytes the token carries.
 */
function parseTokenLite(der: Uint8Array): { signedData: pkijs.SignedData; certificates: Uint8Array[] } {
  const asn1 = asn1js.fromBER(new Uint8Array(der).buffer);
  if (asn1.offset === -1) throw new Error("not DER");
  const [oid, explicit] = (asn1.result as asn1js.Sequence).valueBlock?.value ?? [];
  if (!(oid instanceof asn1js.ObjectIdentifier) || oid.valueBlock.toString() !== OID.signedData) throw new Error("not a CMS SignedData");
  const inner = (explicit as asn1js.Constructed | undefined)?.valueBlock?.value?.[0];
  if (!(inner instanceof asn1js.Sequence)) throw new Error("not a CMS SignedData");
  const isCertificates = (b: asn1js.BaseBlock) => b.idBlock.tagClass === 3 && b.idBlock.tagNumber === 0;
  const block = inner.valueBlock.value.find(isCertificates) as asn1js.Constructed | undefined;
  const certificates = (block?.valueBlock.value ?? []).filter((c) => c instanceof asn1js.Sequence).map((c) => new Uint8Array(c.valueBeforeDecodeView));
  inner.valueBlock.value = inner.valueBlock.value.filter((b) => !isCertificates(b));
  return { signedData: new pkijs.SignedData({ schema: inner }), certificates };
}

/** The certificate whose subjectKeyIdentifier is the SignerInfo's [0] sid (the rarer form of RFC 5652 §5.3). */
function bySubjectKeyId(certificates: Uint8Array[], sid: unknown): Uint8Array | undefined {
  const view = (sid as { valueBlock?: { valueHexView?: Uint8Array } } | undefined)?.valueBlock?.valueHexView;
  if (!view) return undefined;
  const ski = bytesOf(view);
  return certificates.find((der) => {
    const cert = new pkijs.Certificate({ schema: asn1js.fromBER(der.slice().buffer).result });
    const ext = cert.extensions?.find((e) => e.extnID === "2.5.29.14");
    if (!ext) return false;
    const inner = asn1js.fromBER(ext.extnValue.valueBlock.valueHexView.slice().buffer).result;
    return inner instanceof asn1js.OctetString && same(bytesOf(inner.valueBlock.valueHexView), ski);
  });
}

/** Parses DER (ignoring trailing zero padding, as found in a PDF /Contents) into a CMS SignedData. */
export function parseSignedData(der: Uint8Array): pkijs.SignedData {
  const asn1 = asn1js.fromBER(new Uint8Array(der).buffer);
  if (asn1.offset === -1) throw new Error("not DER");
  const info = new pkijs.ContentInfo({ schema: asn1.result });
  if (info.contentType !== OID.signedData) throw new Error("not a CMS SignedData");
  return new pkijs.SignedData({ schema: info.content });
}

/**
 * Verifies a SignerInfo's signature over its signed attributes with the given certificate and checks that
 * messageDigest equals the digest of `content`. Returns a problem string, or null when it verifies.
 */
export function verifySignerInfo(signerInfo: pkijs.SignerInfo, signer: pkijs.Certificate, content: Uint8Array): string | null {
  const digest = DIGEST_BY_OID[signerInfo.digestAlgorithm.algorithmId];
  if (!digest) return `unsupported digest ${signerInfo.digestAlgorithm.algorithmId}`;
  if (!signerInfo.signedAttrs) return "no signed attributes";
  const md = signerInfo.signedAttrs.attributes.find((a) => a.type === OID.messageDigest)?.values[0];
  if (!(md instanceof asn1js.OctetString)) return "no messageDigest attribute";
  if (!same(createHash(digest).update(content).digest(), bytesOf(md.valueBlock.valueHexView))) return "messageDigest does not match the content";
  const attrs = new Uint8Array(signerInfo.signedAttrs.encodedValue.slice(0));
  attrs[0] = 0x31; // signed as an explicit SET OF, stored as [0] IMPLICIT
  const key = new X509Certificate(certificateDer(signer)).publicKey;
  const signature = bytesOf(signerInfo.signature.valueBlock.valueHexView);
  const options =
    signerInfo.signatureAlgorithm.algorithmId === OID.rsaPss
      ? { key, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: constants.RSA_PSS_SALTLEN_AUTO }
      : key;
  try {
    return verify(digest, attrs, options, signature) ? null : "the signature does not verify";
  } catch (error) {
    return `the signature could not be checked (${(error as Error).message})`;
  }
}

/** The certificate's EKU extension is present, critical, and includes id-kp-timeStamping (RFC 3161 §2.3). */
export function hasCriticalTimeStampingEku(cert: pkijs.Certificate): boolean {
  const ext = cert.extensions?.find((e) => e.extnID === OID.extKeyUsage);
  if (!ext || !ext.critical) return false;
  const parsed = ext.parsedValue as pkijs.ExtKeyUsage | undefined;
  const purposes =
    parsed?.keyPurposes ?? new pkijs.ExtKeyUsage({ schema: asn1js.fromBER(ext.extnValue.valueBlock.valueHexView.slice().buffer).result }).keyPurposes;
  return purposes.includes(OID.timeStamping);
}

/** ESS signingCertificate (SHA-1) or signingCertificateV2 (default SHA-256) names this certificate's hash. */
function essBindsCertificate(signerInfo: pkijs.SignerInfo, certDer: Uint8Array): boolean {
  for (const attr of signerInfo.signedAttrs?.attributes ?? []) {
    if (attr.type !== OID.signingCertificate && attr.type !== OID.signingCertificateV2) continue;
    const certs = (attr.values[0] as asn1js.Sequence | undefined)?.valueBlock.value[0] as asn1js.Sequence | undefined;
    const first = certs?.valueBlock.value[0] as asn1js.Sequence | undefined;
    if (!first) return false;
    let alg = attr.type === OID.signingCertificate ? "sha1" : "sha256";
    let hashEl = first.valueBlock.value[0];
    if (attr.type === OID.signingCertificateV2 && hashEl instanceof asn1js.Sequence) {
      alg = DIGEST_BY_OID[(hashEl.valueBlock.value[0] as asn1js.ObjectIdentifier).valueBlock.toString()] ?? "";
      hashEl = first.valueBlock.value[1];
    }
    if (!alg || !(hashEl instanceof asn1js.OctetString)) return false;
    return same(createHash(alg).update(certDer).digest(), bytesOf(hashEl.valueBlock.valueHexView));
  }
  return false;
}

/**
 * Checks a TimeStampToken. `expected.digest` is the imprint we asked for (or recomputed from the file);
 * `expected.nonce`, when given, must be echoed. Never throws: hostile bytes give ok: false and a problem.
 */
export function checkTimestampToken(token: Uint8Array, expected: { digest: Uint8Array; nonce?: bigint }): TTokenCheck {
  const checks = { imprint: false, signature: false, timeStampingEku: false };
  const fail = (problem: string, extra: Partial<TTokenCheck> = {}): TTokenCheck => ({ ok: false, problem, checks, ...extra });
  try {
    let lite: { signedData: pkijs.SignedData; certificates: Uint8Array[] };
    try {
      lite = parseTokenLite(token);
    } catch (error) {
      return fail(`the token is not a time-stamp token (${(error as Error).message})`);
    }
    const { signedData, certificates } = lite;
    if (signedData.encapContentInfo.eContentType !== OID.tstInfo) return fail("the token does not hold a TSTInfo");
    const eContent = signedData.encapContentInfo.eContent;
    if (!eContent) return fail("the token's TSTInfo is missing");
    const tstDer = bytesOf(eContent.getValue());
    const tstAsn1 = asn1js.fromBER(tstDer.slice().buffer);
    if (tstAsn1.offset === -1) return fail("the token's TSTInfo is not DER");
    const tst = new pkijs.TSTInfo({ schema: tstAsn1.result });
    const time = tst.genTime;
    const nonce = tst.nonce ? toBigInt(tst.nonce) : undefined;

    const hashAlg = DIGEST_BY_OID[tst.messageImprint.hashAlgorithm.algorithmId];
    const hashed = bytesOf(tst.messageImprint.hashedMessage.valueBlock.valueHexView);
    checks.imprint = Boolean(hashAlg) && same(hashed, expected.digest);

    const signerInfo = signedData.signerInfos[0];
    if (!signerInfo || signedData.signerInfos.length !== 1) return fail("the token does not have exactly one signer", { time });
    // The signer's certificate by serial number among those the token carries (a wrong pick cannot pass: the
    // signature is verified with it and ESS must name its hash); only that one is parsed with pkijs.
    const sid = signerInfo.sid;
    const serial =
      sid instanceof pkijs.IssuerAndSerialNumber
        ? Buffer.from(sid.serialNumber.valueBlock.valueHexView)
            .toString("hex")
            .replace(/^(00)+/, "")
            .toUpperCase()
        : null;
    const der =
      serial !== null
        ? certificates.find((c) => new X509Certificate(c).serialNumber.replace(/^(00)+/, "").toUpperCase() === serial)
        : bySubjectKeyId(certificates, sid);
    if (!der) return fail("the token does not carry its TSA certificate", { time });
    const signer = new pkijs.Certificate({ schema: asn1js.fromBER(der.slice().buffer).result });
    const x509 = new X509Certificate(der);
    const info = {
      time,
      nonce,
      authority: x509.subject.replace(/\n/g, ", "),
      tsaCertificateNotAfter: new Date(x509.validTo),
      tsaCertificate: der,
      certificates,
    };
    const problem = verifySignerInfo(signerInfo, signer, tstDer);
    const contentType = signerInfo.signedAttrs?.attributes.find((a) => a.type === OID.contentType)?.values[0];
    const bound = essBindsCertificate(signerInfo, der);
    checks.signature = !problem && contentType instanceof asn1js.ObjectIdentifier && contentType.valueBlock.toString() === OID.tstInfo && bound;
    checks.timeStampingEku = hasCriticalTimeStampingEku(signer);
    const validAtTime = time >= new Date(x509.validFrom) && time <= new Date(x509.validTo);

    if (!checks.imprint) return fail("the token is over another imprint than the one asked for", info);
    if (expected.nonce !== undefined && nonce !== expected.nonce) return fail("the token's nonce is not the one sent", info);
    if (problem) return fail(`the token's signature: ${problem}`, info);
    if (!checks.signature)
      return fail("the token's signed attributes do not bind the TSTInfo and the TSA certificate (contentType, ESS signingCertificate)", info);
    if (!checks.timeStampingEku) return fail("the TSA certificate lacks the critical timeStamping extended key usage", info);
    if (!validAtTime) return fail("the TSA certificate was not valid at the time-stamp's time", info);
    return { ok: true, checks, ...info };
  } catch (error) {
    return fail(`the token could not be read (${(error as Error).message})`);
  }
}

/** The signature value (SignerInfo.signature) of a CMS and the time-stamp token in its unsigned attributes. */
export function readSignatureCms(cms: Uint8Array): { signatureValue: Uint8Array; timestampToken?: Uint8Array; signedData: pkijs.SignedData } {
  const signedData = parseSignedData(cms);
  const signerInfo = signedData.signerInfos[0];
  if (!signerInfo) throw new Error("no signer");
  const attr = signerInfo.unsignedAttrs?.attributes.find((a) => a.type === OID.timeStampToken);
  const tokenAsn1 = attr?.values[0] as asn1js.BaseBlock | undefined;
  return {
    signedData,
    signatureValue: bytesOf(signerInfo.signature.valueBlock.valueHexView),
    ...(tokenAsn1 ? { timestampToken: new Uint8Array(tokenAsn1.toBER(false)) } : {}),
  };
}
