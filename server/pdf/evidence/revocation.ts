/**
 * A @libpdf/core RevocationProvider that fetches only what the certificates themselves point to: OCSP from the
 * Authority Information Access extension, CRLs from the CRL distribution points; http(s) only, with a deadline
 * and a size cap (http-fetch.ts). Every answer is checked before it goes into the DSS: an OCSP response must be
 * "successful", signed by the issuer (or a responder certificate the issuer signed), about this serial, and say
 * "good"; a CRL must be signed by the issuer, current, and not list the serial. A self-signed certificate is a
 * trust anchor: no revocation data is asked for it. Problems are collected in `problems` (the caller reports
 * them) and the answer is refused (null), never thrown.
 */
import { createHash, verify, X509Certificate } from "node:crypto";
import * as asn1js from "asn1js";
import * as pkijs from "pkijs";
import type { RevocationProvider } from "@libpdf/core";
import { redactUrl } from "@/server/lib/redact-url";
import { boundedFetch } from "./http-fetch";
import { DEFAULT_TSA_TIMEOUT_MS } from "./tsa-client";

const SIG_DIGEST: Record<string, string> = {
  "1.2.840.10045.4.3.2": "sha256",
  "1.2.840.10045.4.3.3": "sha384",
  "1.2.840.10045.4.3.4": "sha512",
  "1.2.840.113549.1.1.5": "sha1",
  "1.2.840.113549.1.1.11": "sha256",
  "1.2.840.113549.1.1.12": "sha384",
  "1.2.840.113549.1.1.13": "sha512",
};
const OID_OCSP = "1.3.6.1.5.5.7.48.1";
const OID_AIA = "1.3.6.1.5.5.7.1.1";
const OID_CRL_DP = "2.5.29.31";
const OID_OCSP_SIGNING = "1.3.6.1.5.5.7.3.9";
const OID_OCSP_BASIC = "1.3.6.1.5.5.7.48.1.1";

/**
 * Checked answers shared by the files of one sealing or upgrade (the seal's and the TSA's certificates are the
 * same for all of them), keyed by certificate; never shared between calls, so a revocation is seen next time.
 */
export type TRevocationCache = Map<string, { ocsp?: Uint8Array | null; crl?: Uint8Array | null }>;

export type TRevocationProvider = RevocationProvider & {
  problems: string[];
  fetched: { ocsp: number; crl: number };
  /** Delegated OCSP responder certificates that signed an accepted answer (they belong in the DSS too). */
  responderCertificates: Uint8Array[];
  /** Subjects of the non-anchor certificates asked about for which neither OCSP nor a CRL was obtained. */
  missing(): string[];
};

const parseCert = (der: Uint8Array) => new pkijs.Certificate({ schema: asn1js.fromBER(der.slice().buffer).result });
const parseDer = (bytes: Uint8Array) => {
  const asn1 = asn1js.fromBER(bytes.slice().buffer);
  if (asn1.offset === -1) throw new Error("not DER");
  return asn1.result;
};

export function isSelfSigned(der: Uint8Array): boolean {
  const x = new X509Certificate(der);
  return x.subject === x.issuer && x.verify(x.publicKey);
}

function urlsFrom(cert: pkijs.Certificate): { ocsp: string[]; crl: string[] } {
  const ocsp: string[] = [];
  const crl: string[] = [];
  for (const ext of cert.extensions ?? []) {
    try {
      if (ext.extnID === OID_AIA) {
        const info = new pkijs.InfoAccess({ schema: parseDer(ext.extnValue.valueBlock.valueHexView) });
        for (const d of info.accessDescriptions) if (d.accessMethod === OID_OCSP && d.accessLocation.type === 6) ocsp.push(String(d.accessLocation.value));
      } else if (ext.extnID === OID_CRL_DP) {
        const dps = new pkijs.CRLDistributionPoints({ schema: parseDer(ext.extnValue.valueBlock.valueHexView) });
        for (const dp of dps.distributionPoints) {
          if (Array.isArray(dp.distributionPoint)) for (const n of dp.distributionPoint) if (n.type === 6) crl.push(String(n.value));
        }
      }
    } catch {
      // An unreadable extension gives no URL.
    }
  }
  const web = (u: string) => /^https?:\/\//i.test(u);
  return { ocsp: ocsp.filter(web), crl: crl.filter(web) };
}

function verifyWith(keyDer: Uint8Array, algorithmOid: string, data: Uint8Array, signature: Uint8Array): boolean {
  const digest = SIG_DIGEST[algorithmOid];
  if (!digest) return false;
  try {
    return verify(digest, data, new X509Certificate(keyDer).publicKey, signature);
  } catch {
    return false;
  }
}

async function ocspRequest(cert: pkijs.Certificate, issuer: pkijs.Certificate): Promise<Uint8Array> {
  const sha1 = (b: ArrayBuffer | Uint8Array) => createHash("sha1").update(new Uint8Array(b)).digest();
  const nameHash = sha1(issuer.subject.toSchema().toBER(false));
  const keyHash = sha1(issuer.subjectPublicKeyInfo.subjectPublicKey.valueBlock.valueHexView);
  const certId = new asn1js.Sequence({
    value: [
      new asn1js.Sequence({ value: [new asn1js.ObjectIdentifier({ value: "1.3.14.3.2.26" }), new asn1js.Null()] }),
      new asn1js.OctetString({ valueHex: nameHash.buffer.slice(nameHash.byteOffset, nameHash.byteOffset + nameHash.length) }),
      new asn1js.OctetString({ valueHex: keyHash.buffer.slice(keyHash.byteOffset, keyHash.byteOffset + keyHash.length) }),
      cert.serialNumber,
    ],
  });
  const req = new asn1js.Sequence({ value: [new asn1js.Sequence({ value: [new asn1js.Sequence({ value: [new asn1js.Sequence({ value: [certId] })] })] })] });
  return new Uint8Array(req.toBER(false));
}

/**
 * Returns a problem, or null when the OCSP response is usable evidence that `cert` was good; `responders`
 * receives the delegated responder certificate that signed it, if any.
 */
function checkOcsp(body: Uint8Array, cert: pkijs.Certificate, issuerDer: Uint8Array, responders: Uint8Array[] = []): string | null {
  const response = new pkijs.OCSPResponse({ schema: parseDer(body) });
  if (response.responseStatus.valueBlock.valueDec !== 0) return `OCSP status ${response.responseStatus.valueBlock.valueDec}`;
  if (!response.responseBytes || response.responseBytes.responseType !== OID_OCSP_BASIC) return "not a basic OCSP response";
  const basic = new pkijs.BasicOCSPResponse({ schema: parseDer(response.responseBytes.response.valueBlock.valueHexView) });
  const tbs = new Uint8Array(basic.tbsResponseData.tbsView);
  const sig = new Uint8Array(basic.signature.valueBlock.valueHexView);
  const alg = basic.signatureAlgorithm.algorithmId;
  let signedBy: Uint8Array | null = verifyWith(issuerDer, alg, tbs, sig) ? issuerDer : null;
  if (!signedBy) {
    for (const responder of basic.certs ?? []) {
      const der = new Uint8Array(responder.toSchema(false).toBER(false));
      const x = new X509Certificate(der);
      const delegated = x.verify(new X509Certificate(issuerDer).publicKey) && (x.keyUsage ?? []).includes(OID_OCSP_SIGNING);
      if (delegated && verifyWith(der, alg, tbs, sig)) signedBy = der;
    }
  }
  if (!signedBy) return "the OCSP response is not signed by the issuer or its responder";
  if (signedBy !== issuerDer) responders.push(signedBy);
  const single = basic.tbsResponseData.responses.find((r) => r.certID.serialNumber.isEqual(cert.serialNumber));
  if (!single) return "the OCSP response is about another certificate";
  const status = single.certStatus as asn1js.BaseBlock;
  if (status.idBlock.tagClass !== 3 || status.idBlock.tagNumber !== 0)
    return status.idBlock.tagNumber === 1 ? "the certificate is revoked (OCSP)" : "the OCSP status is unknown";
  return null;
}

function checkCrl(body: Uint8Array, cert: pkijs.Certificate, issuerDer: Uint8Array | undefined, now: Date): string | null {
  const crl = new pkijs.CertificateRevocationList({ schema: parseDer(body) });
  if (!crl.issuer.isEqual(cert.issuer)) return "the CRL is from another issuer";
  if (!issuerDer) return "the issuer certificate is unknown, so the CRL cannot be checked";
  if (!verifyWith(issuerDer, crl.signatureAlgorithm.algorithmId, new Uint8Array(crl.tbsView), new Uint8Array(crl.signatureValue.valueBlock.valueHexView))) {
    return "the CRL is not signed by the issuer";
  }
  if (crl.nextUpdate && crl.nextUpdate.value < now) return "the CRL is out of date";
  if ((crl.revokedCertificates ?? []).some((r) => r.userCertificate.isEqual(cert.serialNumber))) return "the certificate is revoked (CRL)";
  return null;
}

export function createRevocationProvider(
  options: { timeoutMs?: number; fetch?: typeof fetch; now?: () => Date; cache?: TRevocationCache } = {},
): TRevocationProvider {
  const cache: TRevocationCache = options.cache ?? new Map();
  const problems: string[] = [];
  const responderCertificates: Uint8Array[] = [];
  const fetched = { ocsp: 0, crl: 0 };
  const issuers = new Map<string, Uint8Array>();
  const key = (der: Uint8Array) => createHash("sha256").update(der).digest("hex");
  const timeoutMs = options.timeoutMs ?? DEFAULT_TSA_TIMEOUT_MS;
  const subject = (der: Uint8Array) => new X509Certificate(der).subject.replace(/\n/g, ", ");
  const asked = new Map<string, string>();
  const covered = new Set<string>();
  const ask = (der: Uint8Array) => asked.set(key(der), subject(der));
  return {
    problems,
    fetched,
    responderCertificates,
    missing: () => [...asked].filter(([k]) => !covered.has(k)).map(([, s]) => s),
    async getOCSP(certDer: Uint8Array, issuerDer: Uint8Array) {
      try {
        if (isSelfSigned(certDer)) return null;
        ask(certDer);
        issuers.set(key(certDer), issuerDer);
        const cached = cache.get(key(certDer));
        if (cached?.ocsp !== undefined) {
          if (cached.ocsp) covered.add(key(certDer));
          return cached.ocsp;
        }
        const cert = parseCert(certDer);
        for (const url of urlsFrom(cert).ocsp) {
          try {
            const body = await boundedFetch({
              url,
              method: "POST",
              contentType: "application/ocsp-request",
              accept: "application/ocsp-response",
              body: await ocspRequest(cert, parseCert(issuerDer)),
              timeoutMs,
              fetch: options.fetch,
            });
            const problem = checkOcsp(body, cert, issuerDer, responderCertificates);
            if (problem) throw new Error(problem);
            fetched.ocsp += 1;
            covered.add(key(certDer));
            cache.set(key(certDer), { ...cache.get(key(certDer)), ocsp: body });
            return body;
          } catch (error) {
            problems.push(`OCSP for ${subject(certDer)} from ${redactUrl(url)}: ${(error as Error).message}`);
          }
        }
      } catch (error) {
        problems.push(`OCSP: ${(error as Error).message}`);
      }
      cache.set(key(certDer), { ...cache.get(key(certDer)), ocsp: null });
      return null;
    },
    async getCRL(certDer: Uint8Array) {
      try {
        if (isSelfSigned(certDer)) return null;
        ask(certDer);
        const cached = cache.get(key(certDer));
        if (cached?.crl !== undefined) {
          if (cached.crl) covered.add(key(certDer));
          return cached.crl;
        }
        const cert = parseCert(certDer);
        for (const url of urlsFrom(cert).crl) {
          try {
            const body = await boundedFetch({ url, method: "GET", accept: "application/pkix-crl", timeoutMs, fetch: options.fetch });
            const problem = checkCrl(body, cert, issuers.get(key(certDer)), options.now?.() ?? new Date());
            if (problem) throw new Error(problem);
            fetched.crl += 1;
            covered.add(key(certDer));
            cache.set(key(certDer), { ...cache.get(key(certDer)), crl: body });
            return body;
          } catch (error) {
            problems.push(`CRL for ${subject(certDer)} from ${redactUrl(url)}: ${(error as Error).message}`);
          }
        }
      } catch (error) {
        problems.push(`CRL: ${(error as Error).message}`);
      }
      cache.set(key(certDer), { ...cache.get(key(certDer)), crl: null });
      return null;
    },
  };
}
