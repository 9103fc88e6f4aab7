/**
 * The identity that seals: the operator's PKCS#12 when SIGNING_P12_PATH is set, otherwise this instance's own
 * certificate, created on first use and kept in `store` with its private key encrypted under ENCRYPTION_KEY
 * (AES-256-GCM, server/lib/crypto.ts). The store is injected so the engine stays free of the database; the lead
 * wires it to a table. `insertIfAbsent` must keep the first writer's key and return what is stored, so that two
 * processes starting together end up with one certificate.
 */
import { createHash, webcrypto, X509Certificate } from "node:crypto";
import { readFile } from "node:fs/promises";
import { hostname } from "node:os";
import { CryptoKeySigner, P12Signer } from "@libpdf/core";
import { env } from "@/server/env";
import { now } from "@/server/lib/clock";
import { decryptSecret, encryptSecret } from "@/server/lib/crypto";
import { createInstanceCertificate } from "./create-instance-certificate";
import type { TSigningIdentity } from "./types";

export type TStoredSigningKey = {
  /** base64 DER X.509 */
  certificate: string;
  /** `encryptSecret(base64 PKCS#8)` */
  encryptedPrivateKey: string;
  algorithm: "ECDSA-P256-SHA256";
  createdAt: Date;
};

export type TSigningKeyStore = {
  read(): Promise<TStoredSigningKey | null>;
  insertIfAbsent(key: TStoredSigningKey): Promise<TStoredSigningKey>;
};

/** `instanceOnly`: never the operator's PKCS#12 (the test identity, docs/decisions/test-mode.md). */
export type TSigningIdentityOptions = { p12Path?: string; p12Password?: string; commonName?: string; instanceOnly?: boolean };

function describe(der: Uint8Array): { subject: string; notAfter: Date; fingerprintSha256: string } {
  const x509 = new X509Certificate(der);
  return {
    subject: x509.subject.replace(/\n/g, ", "),
    notAfter: new Date(x509.validTo),
    fingerprintSha256: createHash("sha256").update(der).digest("hex"),
  };
}

async function fromP12(path: string, password: string): Promise<TSigningIdentity> {
  let bytes: Uint8Array;
  try {
    bytes = new Uint8Array(await readFile(path));
  } catch (error) {
    throw new Error(`SIGNING_P12_PATH: cannot read ${path} (${(error as NodeJS.ErrnoException).code ?? "error"})`);
  }
  let signer: P12Signer;
  try {
    signer = await P12Signer.create(bytes, password);
  } catch (error) {
    throw new Error(`SIGNING_P12_PATH: ${path} could not be opened with SIGNING_P12_PASSWORD (${(error as Error).message})`);
  }
  return { signer, certificateDer: signer.certificate, source: "pkcs12", ...describe(signer.certificate) };
}

async function fromStored(stored: TStoredSigningKey): Promise<TSigningIdentity> {
  const certificateDer = new Uint8Array(Buffer.from(stored.certificate, "base64"));
  const pkcs8 = Buffer.from(decryptSecret(stored.encryptedPrivateKey), "base64");
  const privateKey = (await webcrypto.subtle.importKey("pkcs8", pkcs8, { name: "ECDSA", namedCurve: "P-256" }, false, ["sign"])) as unknown as CryptoKey;
  const signer = new CryptoKeySigner(privateKey, certificateDer, "EC", "ECDSA");
  return { signer, certificateDer, source: "instance", ...describe(certificateDer) };
}

export async function loadOrCreateSigningIdentity(store: TSigningKeyStore, options: TSigningIdentityOptions = {}): Promise<TSigningIdentity> {
  const p12Path = options.instanceOnly ? undefined : (options.p12Path ?? env().SIGNING_P12_PATH);
  if (p12Path) return fromP12(p12Path, options.p12Password ?? env().SIGNING_P12_PASSWORD ?? "");
  const existing = await store.read();
  if (existing) return fromStored(existing);
  const issuedAt = now();
  const commonName = options.commonName ?? `Foliosign seal – ${new URL(env().publicUrl).hostname || hostname()}`;
  const created = await createInstanceCertificate(commonName, issuedAt);
  const stored = await store.insertIfAbsent({
    certificate: Buffer.from(created.certificateDer).toString("base64"),
    encryptedPrivateKey: encryptSecret(Buffer.from(created.privateKeyPkcs8).toString("base64")),
    algorithm: "ECDSA-P256-SHA256",
    createdAt: issuedAt,
  });
  return fromStored(stored);
}
