/**
 * Strict PAdES signed attributes. @libpdf/core 0.4 always puts a CMS signing-time attribute in the signed
 * attributes (its `signingTime` option only changes the value), which PAdES baseline forbids: the time belongs
 * in the signature dictionary's /M. So @libpdf/core places the signature (field, /M, ByteRange, the Contents
 * placeholder: it signs with a throwaway value) and this file rewrites the CMS in the placeholder: the signed
 * attributes become exactly contentType, messageDigest, signingCertificateV2 and CMSAlgorithmProtection (which
 * @libpdf/core built over the same bytes and the same certificate), in DER order, signed once by the real
 * signer, with the signature time-stamp token (when a TSA answers) as an unsigned attribute.
 * Rewriting /Contents changes no byte covered by the ByteRange, so nothing else moves.
 */
import { createHash } from "node:crypto";
import * as asn1js from "asn1js";
import * as pkijs from "pkijs";
import type { Signer, TimestampAuthority } from "@libpdf/core";
import { OID, parseSignedData } from "./timestamp-token";

/** The signer @libpdf/core sees while placing: same certificate and algorithm, a throwaway signature value. */
export function placeholderSigner(signer: Signer): Signer {
  return {
    certificate: signer.certificate,
    ...(signer.certificateChain ? { certificateChain: signer.certificateChain } : {}),
    keyType: signer.keyType,
    signatureAlgorithm: signer.signatureAlgorithm,
    sign: async () => new Uint8Array(72),
  };
}

export type TSignatureLocation = { byteRange: [number, number, number, number]; contentsStart: number; contentsEnd: number };

/** The last /ByteRange in the file (the signature just placed) and where its /Contents hex sits. */
export function lastSignature(bytes: Uint8Array): TSignatureLocation {
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("latin1");
  const re = /\/ByteRange\s*\[\s*(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s*\]/g;
  let last: RegExpExecArray | null = null;
  for (let m = re.exec(text); m; m = re.exec(text)) last = m;
  if (!last) throw new Error("no signature placeholder found");
  const byteRange = [1, 2, 3, 4].map((i) => Number(last![i])) as [number, number, number, number];
  const [a, b, c] = byteRange;
  if (a !== 0 || text[a + b] !== "<" || text[c - 1] !== ">") throw new Error("the signature placeholder is not where its ByteRange says");
  return { byteRange, contentsStart: a + b + 1, contentsEnd: c - 1 };
}

export function signedBytes(bytes: Uint8Array, [a, b, c, d]: [number, number, number, number]): Buffer {
  return Buffer.concat([bytes.subarray(a, a + b), bytes.subarray(c, c + d)]);
}

const KEEP = new Set<string>([OID.contentType, OID.messageDigest, OID.signingCertificateV2, OID.cmsAlgorithmProtection]);

function derOf(attr: pkijs.Attribute): Buffer {
  return Buffer.from(attr.toSchema().toBER(false));
}

/** The CMS (with its time-stamp token) is larger than the placeholder @libpdf/core reserved. */
export class PlaceholderTooSmallError extends Error {
  override name = "PlaceholderTooSmallError";
  constructor(readonly needed: number) {
    super(`the signature (${needed} bytes) does not fit its placeholder`);
  }
}

export type TStrictSignResult = { bytes: Uint8Array; timestampToken?: Uint8Array; timestampFailure?: string };

/**
 * Rewrites the placed signature's CMS in place (same length, zero-padded). `tsa` (optional) is asked for a
 * token over SHA-256(signature value); when it fails the signature stays without one and the reason is returned.
 */
export async function writeStrictCms(placed: Uint8Array, signer: Signer, tsa: TimestampAuthority | null): Promise<TStrictSignResult> {
  const out = placed.slice();
  const where = lastSignature(out);
  const hex = Buffer.from(out.subarray(where.contentsStart, where.contentsEnd)).toString("latin1");
  const signedData = parseSignedData(new Uint8Array(Buffer.from(hex, "hex")));
  const original = signedData.signerInfos[0];
  if (!original?.signedAttrs) throw new Error("the placed signature has no signed attributes");

  const digest = createHash("sha256").update(signedBytes(out, where.byteRange)).digest();
  const md = original.signedAttrs.attributes.find((a) => a.type === OID.messageDigest)?.values[0];
  if (!(md instanceof asn1js.OctetString) || !Buffer.from(md.valueBlock.valueHexView).equals(digest)) {
    throw new Error("the placed signature's messageDigest is not the digest of its byte ranges");
  }
  const attributes = original.signedAttrs.attributes.filter((a) => KEEP.has(a.type)).sort((x, y) => Buffer.compare(derOf(x), derOf(y)));
  const signedAttrs = new pkijs.SignedAndUnsignedAttributes({ type: 0, attributes });
  const toSign = new Uint8Array(signedAttrs.toSchema().toBER(false));
  toSign[0] = 0x31;
  const signature = await signer.sign(toSign, "SHA-256");

  let timestampToken: Uint8Array | undefined;
  let timestampFailure: string | undefined;
  if (tsa) {
    try {
      timestampToken = await tsa.timestamp(new Uint8Array(createHash("sha256").update(signature).digest()), "SHA-256");
    } catch (error) {
      timestampFailure = (error as Error).message;
    }
  }
  const signerInfo = new pkijs.SignerInfo({
    version: 1,
    sid: original.sid,
    digestAlgorithm: original.digestAlgorithm,
    signedAttrs,
    signatureAlgorithm: original.signatureAlgorithm,
    signature: new asn1js.OctetString({ valueHex: signature.slice().buffer }),
    ...(timestampToken
      ? {
          unsignedAttrs: new pkijs.SignedAndUnsignedAttributes({
            type: 1,
            attributes: [new pkijs.Attribute({ type: OID.timeStampToken, values: [asn1js.fromBER(timestampToken.slice().buffer).result] })],
          }),
        }
      : {}),
  });
  signedData.signerInfos = [signerInfo];
  const der = new pkijs.ContentInfo({ contentType: OID.signedData, content: signedData.toSchema() }).toSchema().toBER(false);
  const newHex = Buffer.from(der).toString("hex");
  const room = where.contentsEnd - where.contentsStart;
  if (newHex.length > room) throw new PlaceholderTooSmallError(newHex.length / 2);
  out.set(Buffer.from(newHex.padEnd(room, "0"), "latin1"), where.contentsStart);
  return { bytes: out, ...(timestampToken ? { timestampToken } : {}), ...(timestampFailure ? { timestampFailure } : {}) };
}
