/**
 * The sealing identity: an instance certificate is created once and kept with its private key encrypted under
 * ENCRYPTION_KEY; the operator's PKCS#12 (made here with the openssl CLI) is used instead when configured, and a
 * wrong password is a clear start-up error. selfTest proves the chain end to end, including tamper detection.
 */
import { execFileSync } from "node:child_process";
import { X509Certificate } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { PDFDocument } from "pdf-lib";
import { afterAll, describe, expect, it } from "vitest";
import { decryptSecret } from "@/server/lib/crypto";
import { memorySigningKeyStore, runTool } from "@/server/test/sealing-fixtures";
import { loadOrCreateSigningIdentity } from "./load-or-create-signing-identity";
import { selfTest } from "./self-test";
import { signPdf } from "./sign-pdf";
import { verifySealed } from "./verify-sealed";

const dir = mkdtempSync(path.join(tmpdir(), "foliosign-id-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function onePage(): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  doc.addPage([200, 200]);
  return doc.save();
}

describe("loadOrCreateSigningIdentity", () => {
  it("creates one instance certificate, stores the key encrypted, and reuses it", async () => {
    const store = memorySigningKeyStore();
    const first = await loadOrCreateSigningIdentity(store, { commonName: "Foliosign seal – sign.example.com" });
    const second = await loadOrCreateSigningIdentity(store);
    expect(store.rows).toHaveLength(1);
    expect(second.fingerprintSha256).toBe(first.fingerprintSha256);
    expect(first.source).toBe("instance");

    const row = store.rows[0]!;
    expect(row.encryptedPrivateKey.startsWith("v1:")).toBe(true);
    const pkcs8 = Buffer.from(decryptSecret(row.encryptedPrivateKey), "base64");
    expect(row.encryptedPrivateKey).not.toContain(pkcs8.toString("base64").slice(0, 40));

    const x509 = new X509Certificate(first.certificateDer);
    expect(x509.subject).toContain("CN=Foliosign seal – sign.example.com");
    expect(x509.subject).toContain("O=Foliosign instance");
    expect(x509.publicKey.asymmetricKeyDetails?.namedCurve).toBe("prime256v1");
    expect(x509.ca).toBe(false);
    expect(x509.verify(x509.publicKey)).toBe(true);
  });

  it("keeps the first writer's key when two processes create at once", async () => {
    const store = memorySigningKeyStore();
    const [a, b] = await Promise.all([loadOrCreateSigningIdentity(store), loadOrCreateSigningIdentity(store)]);
    expect(a.fingerprintSha256).toBe(b.fingerprintSha256);
  });

  it("uses the operator's PKCS#12 when configured (pdfsig names its signer)", async () => {
    const key = path.join(dir, "key.pem");
    const cert = path.join(dir, "cert.pem");
    const p12 = path.join(dir, "operator.p12");
    execFileSync(
      "openssl",
      ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", cert, "-days", "30", "-subj", "/CN=ACME Operator Seal/O=ACME"],
      { stdio: "ignore" },
    );
    execFileSync("openssl", ["pkcs12", "-export", "-inkey", key, "-in", cert, "-out", p12, "-passout", "pass:s3cret"], { stdio: "ignore" });

    const store = memorySigningKeyStore();
    const identity = await loadOrCreateSigningIdentity(store, { p12Path: p12, p12Password: "s3cret" });
    expect(identity.source).toBe("pkcs12");
    expect(store.rows).toHaveLength(0);
    const sealed = await signPdf(await onePage(), identity);
    const file = path.join(dir, "p12-signed.pdf");
    writeFileSync(file, sealed.bytes);
    const { out } = runTool("pdfsig", [file]);
    expect(out).toContain("Signer Certificate Common Name: ACME Operator Seal");
    expect(out).toContain("Signature is Valid.");
    expect(await verifySealed(sealed.bytes, [identity.certificateDer])).toEqual({ signed: true, intact: true, signerMatches: true });

    await expect(loadOrCreateSigningIdentity(store, { p12Path: p12, p12Password: "wrong" })).rejects.toThrow(/SIGNING_P12_PASSWORD/);
    await expect(loadOrCreateSigningIdentity(store, { p12Path: path.join(dir, "missing.p12") })).rejects.toThrow(/cannot read/);
  });
});

describe("selfTest", () => {
  it("signs and verifies a one-page PDF and detects a flipped byte", async () => {
    const identity = await loadOrCreateSigningIdentity(memorySigningKeyStore());
    const result = await selfTest(identity);
    expect(result).toMatchObject({ ok: true, signed: true, intact: true, signerMatches: true, tamperDetected: true, fontsLoaded: true, source: "instance" });
  });
});

describe("verifySealed on hostile input", () => {
  it("answers false, never throws", async () => {
    const identity = await loadOrCreateSigningIdentity(memorySigningKeyStore());
    const cases = [
      new Uint8Array(0),
      new Uint8Array(Buffer.from("not a pdf at all")),
      await onePage(),
      new Uint8Array(Buffer.from("%PDF-1.7\n/ByteRange [0 10 20 5] <zz>")),
      new Uint8Array(Buffer.from("%PDF-1.7\n/ByteRange [0 9 14 2]<3082>xx")),
    ];
    for (const bytes of cases) {
      const result = await verifySealed(bytes, [identity.certificateDer]);
      expect(result).toMatchObject({ signed: false, intact: false, signerMatches: false });
    }
  });
});
