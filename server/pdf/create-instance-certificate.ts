/**
 * A self-signed sealing certificate for an instance without the operator's PKCS#12: ECDSA P-256 / SHA-256
 * (small, fast, accepted by poppler/NSS, Adobe and the EU DSS validator), ten years, key usage
 * digitalSignature + nonRepudiation, not a CA. Built with pkijs (already under @libpdf/core) on WebCrypto.
 */
import { randomBytes, webcrypto } from "node:crypto";
import * as asn1js from "asn1js";
import * as pkijs from "pkijs";

const OID = { commonName: "2.5.4.3", organisation: "2.5.4.10", organisationalUnit: "2.5.4.11" } as const;

export type TInstanceCertificate = { certificateDer: Uint8Array; privateKeyPkcs8: Uint8Array; notAfter: Date };

/** One attribute per RDN (pkijs would put them all in one multi-valued RDN: "CN=…+O=…"). */
function name(cn: string): pkijs.RelativeDistinguishedNames {
  const attributes = [
    new pkijs.AttributeTypeAndValue({ type: OID.commonName, value: new asn1js.Utf8String({ value: cn }) }),
    new pkijs.AttributeTypeAndValue({ type: OID.organisation, value: new asn1js.Utf8String({ value: "Foliosign instance" }) }),
    new pkijs.AttributeTypeAndValue({
      type: OID.organisationalUnit,
      value: new asn1js.Utf8String({ value: "Document sealing (self-signed)" }),
    }),
  ];
  const schema = new asn1js.Sequence({ value: attributes.map((a) => new asn1js.Set({ value: [a.toSchema()] })) });
  return new pkijs.RelativeDistinguishedNames({ schema: asn1js.fromBER(schema.toBER(false)).result });
}

export async function createInstanceCertificate(commonName: string, issuedAt: Date): Promise<TInstanceCertificate> {
  const subtle = webcrypto.subtle as unknown as SubtleCrypto;
  const keys = (await subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, true, ["sign", "verify"])) as CryptoKeyPair;
  const cert = new pkijs.Certificate();
  cert.version = 2;
  const serial = randomBytes(16);
  serial[0] = (serial[0]! & 0x7f) | 0x40; // positive and minimally encoded (DER), so every parser accepts it
  cert.serialNumber = new asn1js.Integer({ valueHex: serial });
  cert.subject = name(commonName);
  cert.issuer = name(commonName);
  // Backdated a day so that a verifier whose clock is slightly behind does not see a future certificate.
  cert.notBefore.value = new Date(issuedAt.getTime() - 86_400_000);
  const notAfter = new Date(issuedAt.getTime());
  notAfter.setUTCFullYear(notAfter.getUTCFullYear() + 10);
  cert.notAfter.value = notAfter;
  await cert.subjectPublicKeyInfo.importKey(keys.publicKey);
  const keyUsage = new asn1js.BitString({ valueHex: new Uint8Array([0xc0]).buffer, unusedBits: 6 });
  const basicConstraints = new pkijs.BasicConstraints({ cA: false });
  const ski = await subtle.digest("SHA-1", new Uint8Array(cert.subjectPublicKeyInfo.subjectPublicKey.valueBlock.valueHexView));
  cert.extensions = [
    new pkijs.Extension({ extnID: "2.5.29.19", critical: true, extnValue: basicConstraints.toSchema().toBER(false) }),
    new pkijs.Extension({ extnID: "2.5.29.15", critical: true, extnValue: keyUsage.toBER(false) }),
    new pkijs.Extension({ extnID: "2.5.29.14", critical: false, extnValue: new asn1js.OctetString({ valueHex: ski }).toBER(false) }),
  ];
  await cert.sign(keys.privateKey, "SHA-256");
  return {
    certificateDer: new Uint8Array(cert.toSchema(true).toBER(false)),
    privateKeyPkcs8: new Uint8Array(await subtle.exportKey("pkcs8", keys.privateKey)),
    notAfter,
  };
}
