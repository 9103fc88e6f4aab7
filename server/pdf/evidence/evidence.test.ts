/**
 * PAdES evidence against real parts: a loopback CA (CRL + OCSP) and RFC 3161 TSA (test-support/loopback-pki.ts),
 * checked by tools that share no code with ours — `openssl ts -verify` for every token against the imprint we
 * recompute here from the file (signature value / signed byte ranges), `openssl cms -cmsout -print` for the
 * signed attributes, `pdfsig` for the seal, `qpdf --check` for the file — plus our own inspectEvidence and
 * verifySealed, which /verify uses.
 */
import { createHash, randomBytes } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import * as asn1js from "asn1js";
import * as pkijs from "pkijs";
import { PDF, rgb } from "@libpdf/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { certificateData, makeOriginal, memorySigningKeyStore, runTool } from "@/server/test/sealing-fixtures";
import { loadOrCreateSigningIdentity } from "../load-or-create-signing-identity";
import { sealPackage } from "../seal-package";
import { signPdf } from "../sign-pdf";
import type { TSigningIdentity } from "../types";
import { verifySealed } from "../verify-sealed";
import { startLoopbackPki, subjectOf, type TLoopbackPki, type TTsaMode } from "../test-support/loopback-pki";
import { sealArchive } from "./archive";
import { createTsaClient } from "./tsa-client";
import { EvidenceUnavailableError, inspectEvidence, renewEvidence, upgradeEvidence, type TEvidenceConfig } from "./index";

process.env.ENCRYPTION_KEY ??= "00".repeat(32);
const dir = mkdtempSync(path.join(tmpdir(), "foliosign-evidence-"));
let pki: TLoopbackPki;
let instance: TSigningIdentity;
let operator: TSigningIdentity;
let original: Uint8Array;
let config: TEvidenceConfig;
let fileNo = 0;

beforeAll(async () => {
  pki = await startLoopbackPki();
  instance = await loadOrCreateSigningIdentity(memorySigningKeyStore());
  operator = await loadOrCreateSigningIdentity(memorySigningKeyStore(), { p12Path: pki.operatorP12Path, p12Password: pki.operatorP12Password });
  original = await makeOriginal(2);
  config = { tsaUrls: [pki.tsaUrl], tsaTimeoutMs: 5_000 };
}, 60_000);
afterAll(async () => {
  await pki?.close();
  rmSync(dir, { recursive: true, force: true });
});

const write = (bytes: Uint8Array) => {
  const file = path.join(dir, `f${++fileNo}.pdf`);
  writeFileSync(file, bytes);
  return file;
};

/** Every signature dictionary's ByteRange and Contents, read here with a regex (not with our code). */
function signatures(bytes: Uint8Array) {
  const text = Buffer.from(bytes).toString("latin1");
  const out: { range: number[]; contents: Buffer; docTimeStamp: boolean }[] = [];
  for (const m of text.matchAll(/\/ByteRange\s*\[\s*(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s*\]/g)) {
    const range = m.slice(1, 5).map(Number);
    const [, b, c] = range as [number, number, number, number];
    const objStart = text.lastIndexOf(" obj", m.index);
    out.push({ range, contents: Buffer.from(text.slice(b + 1, c - 1), "hex"), docTimeStamp: text.slice(objStart, c).includes("/DocTimeStamp") });
  }
  return out;
}

const rangesDigest = (bytes: Uint8Array, [a, b, c, d]: number[]) =>
  createHash("sha256")
    .update(bytes.subarray(a!, a! + b!))
    .update(bytes.subarray(c!, c! + d!))
    .digest("hex");

function sealCms(bytes: Uint8Array) {
  const seal = signatures(bytes).find((s) => !s.docTimeStamp)!;
  const der = seal.contents;
  const info = new pkijs.ContentInfo({ schema: asn1js.fromBER(new Uint8Array(der).buffer).result });
  const signerInfo = new pkijs.SignedData({ schema: info.content }).signerInfos[0]!;
  const token = signerInfo.unsignedAttrs?.attributes.find((a) => a.type === "1.2.840.113549.1.9.16.2.14")?.values[0];
  return {
    der,
    signatureValue: Buffer.from(signerInfo.signature.valueBlock.valueHexView),
    token: token ? Buffer.from(token.toBER(false)) : null,
  };
}

/** `openssl ts -verify` of a DER token against a hex imprint, chained to the loopback CA. */
function opensslTsVerify(token: Uint8Array, digestHex: string): string {
  const file = path.join(dir, `tok${++fileNo}.der`);
  writeFileSync(file, token);
  return runTool("openssl", ["ts", "-verify", "-digest", digestHex, "-in", file, "-token_in", "-CAfile", pki.caCertificatePath]).out;
}

/** The OIDs of the seal's signed attributes as `openssl cms -cmsout -print` lists them. */
function signedAttributeOids(bytes: Uint8Array): string[] {
  const file = path.join(dir, `cms${++fileNo}.der`);
  const der = sealCms(bytes).der;
  // openssl reads one DER object; the zero padding after it is ignored.
  writeFileSync(file, der);
  const out = runTool("openssl", ["cms", "-cmsout", "-print", "-inform", "DER", "-in", file]).out;
  const block = out.slice(out.indexOf("signedAttrs:"), out.indexOf("signatureAlgorithm:", out.indexOf("signedAttrs:")));
  return [...block.matchAll(/object: .*?\(([\d.]+)\)/g)].map((m) => m[1]!);
}

const STRICT = ["1.2.840.113549.1.9.3", "1.2.840.113549.1.9.4", "1.2.840.113549.1.9.16.2.47", "1.2.840.113549.1.9.52"];

function dss(bytes: Uint8Array) {
  const text = Buffer.from(bytes).toString("latin1");
  const at = text.lastIndexOf("/Type /DSS");
  const dict = at === -1 ? "" : text.slice(at, text.indexOf("endobj", at));
  const count = (key: string) => (new RegExp(`/${key}\\s*\\[([^\\]]*)\\]`).exec(dict)?.[1]?.match(/\d+ \d+ R/g) ?? []).length;
  return { certs: count("Certs"), ocsps: count("OCSPs"), crls: count("CRLs") };
}

function expectFirstSignatureValid(bytes: Uint8Array) {
  const out = runTool("pdfsig", [write(bytes)]).out;
  const first = out.slice(out.indexOf("Signature #1:"), out.indexOf("Signature #2:") === -1 ? undefined : out.indexOf("Signature #2:"));
  expect(first).toContain("Signature Validation: Signature is Valid.");
}

function expectQpdfClean(bytes: Uint8Array) {
  const { code, out } = runTool("qpdf", ["--check", write(bytes)]);
  expect(out).toContain("No syntax or stream encoding errors found");
  expect(code).toBe(0);
}

/** Every token in the file verifies with openssl against the imprint recomputed here. */
function expectEveryTokenVerifies(bytes: Uint8Array) {
  const { signatureValue, token } = sealCms(bytes);
  let count = 0;
  if (token) {
    expect(opensslTsVerify(token, createHash("sha256").update(signatureValue).digest("hex"))).toContain("Verification: OK");
    count++;
  }
  for (const s of signatures(bytes).filter((x) => x.docTimeStamp)) {
    expect(opensslTsVerify(s.contents, rangesDigest(bytes, s.range))).toContain("Verification: OK");
    // And not against another imprint: the check can fail.
    expect(opensslTsVerify(s.contents, "00".repeat(32))).not.toContain("Verification: OK");
    count++;
  }
  return count;
}

describe("B-B (no TSA)", () => {
  it("is strict PAdES: signed attributes exactly contentType, messageDigest, signingCertificateV2, CMSAlgorithmProtection; /M holds the time", async () => {
    const sealed = await signPdf(original, instance);
    expect(sealed.evidence).toEqual({ level: "B-B", timestamps: [] });
    expect(signedAttributeOids(sealed.bytes).sort()).toEqual([...STRICT].sort());
    expect(Buffer.from(sealed.bytes).toString("latin1")).toMatch(/\/M \(D:\d{14}/);
    expect(sealCms(sealed.bytes).token).toBeNull();
    expectFirstSignatureValid(sealed.bytes);
    expectQpdfClean(sealed.bytes);
    expect(expectEveryTokenVerifies(sealed.bytes)).toBe(0);
    expect(await inspectEvidence(sealed.bytes)).toMatchObject({ level: "B-B", timestamps: [], dss: null });
    expect(await verifySealed(sealed.bytes, [instance.certificateDer])).toEqual({ signed: true, intact: true, signerMatches: true });
  });

  it("the operator's PKCS#12 seal is strict too", async () => {
    const sealed = await signPdf(original, operator);
    expect(signedAttributeOids(sealed.bytes).sort()).toEqual([...STRICT].sort());
    expectFirstSignatureValid(sealed.bytes);
  });
});

describe("B-LTA with a TSA", () => {
  it("instance certificate (self-signed trust anchor): signature time-stamp, DSS, document time-stamp — all verified by openssl", async () => {
    const sealed = await signPdf(original, instance, { evidence: config });
    expect(sealed.evidence.level).toBe("B-LTA");
    expect(sealed.evidence.failure).toBeUndefined();
    expect(sealed.evidence.timestamps.map((t) => [t.kind, t.authority])).toEqual([
      ["signature", subjectOf(pki.tsaCertificateDer)],
      ["document", subjectOf(pki.tsaCertificateDer)],
    ]);
    expect(signedAttributeOids(sealed.bytes).sort()).toEqual([...STRICT].sort());
    expect(expectEveryTokenVerifies(sealed.bytes)).toBe(2);
    // Certs: the seal's, the TSA's and the CA's; revocation data for the TSA certificate (the CA and our
    // self-signed seal are trust anchors).
    const d = dss(sealed.bytes);
    expect(d.certs).toBeGreaterThanOrEqual(3);
    expect(d.ocsps + d.crls).toBeGreaterThanOrEqual(1);
    expect(signatures(sealed.bytes).map((s) => s.docTimeStamp)).toEqual([false, true]);
    expect(Buffer.from(sealed.bytes).toString("latin1")).toMatch(/\/SubFilter \/ETSI\.RFC3161/);
    expectFirstSignatureValid(sealed.bytes);
    expectQpdfClean(sealed.bytes);
    const inspected = await inspectEvidence(sealed.bytes);
    expect(inspected.level).toBe("B-LTA");
    expect(inspected.timestamps.every((t) => t.valid && t.checks.imprint && t.checks.signature && t.checks.timeStampingEku)).toBe(true);
    expect(await verifySealed(sealed.bytes, [instance.certificateDer])).toEqual({ signed: true, intact: true, signerMatches: true });
  });

  it("operator PKCS#12 from a CA with OCSP and CRL URLs: OCSP for the seal and the TSA in the DSS; CRL when OCSP is down", async () => {
    const before = pki.seen.ocsp;
    const sealed = await signPdf(original, operator, { evidence: config });
    expect(sealed.evidence.level).toBe("B-LTA");
    expect(pki.seen.ocsp).toBeGreaterThan(before);
    expect(dss(sealed.bytes).ocsps).toBeGreaterThanOrEqual(2);
    expect(expectEveryTokenVerifies(sealed.bytes)).toBe(2);
    expectFirstSignatureValid(sealed.bytes);
    expectQpdfClean(sealed.bytes);

    pki.setOcspMode("down");
    try {
      const crlBefore = pki.seen.crl;
      const viaCrl = await signPdf(original, operator, { evidence: config });
      expect(viaCrl.evidence.level).toBe("B-LTA");
      expect(pki.seen.crl).toBeGreaterThan(crlBefore);
      expect(dss(viaCrl.bytes)).toMatchObject({ ocsps: 0 });
      expect(dss(viaCrl.bytes).crls).toBeGreaterThanOrEqual(1);
    } finally {
      pki.setOcspMode("ok");
    }
  });

  it("a revoked operator certificate gets no revocation evidence: the report says so and stays below B-LTA", async () => {
    // A fresh PKI so the revocation does not leak into the other tests.
    const other = await startLoopbackPki();
    try {
      const op = await loadOrCreateSigningIdentity(memorySigningKeyStore(), { p12Path: other.operatorP12Path, p12Password: other.operatorP12Password });
      await other.revokeOperator();
      const sealed = await signPdf(original, op, { evidence: { tsaUrls: [other.tsaUrl], tsaTimeoutMs: 5_000 } });
      expect(sealed.evidence.level).toBe("B-T");
      expect(sealed.evidence.failure).toMatch(/no revocation data .*Foliosign Operator Seal/);
    } finally {
      await other.close();
    }
  });
});

describe("hostile or broken TSAs are 'down': B-B and a reason, never a crash", () => {
  const cases: [TTsaMode, RegExp][] = [
    ["garbage", /not an RFC 3161 response/],
    ["reject", /refused \(status 2\)/],
    ["other-imprint", /another imprint/],
    ["no-eku", /timeStamping extended key usage/],
    ["bad-nonce", /nonce/],
    ["oversize", /larger than 1048576 bytes/],
    ["slow", /no answer within 300 ms/],
  ];
  for (const [mode, reason] of cases) {
    it(mode, async () => {
      pki.setTsaMode(mode);
      try {
        const sealed = await signPdf(original, instance, { evidence: { ...config, tsaTimeoutMs: 300 } });
        expect(sealed.evidence.level).toBe("B-B");
        expect(sealed.evidence.failure).toMatch(reason);
        expect(sealed.evidence.failure).toContain(pki.tsaUrl);
        expect(sealCms(sealed.bytes).token).toBeNull();
        expect(signedAttributeOids(sealed.bytes).sort()).toEqual([...STRICT].sort());
        expectFirstSignatureValid(sealed.bytes);
      } finally {
        pki.setTsaMode("ok");
      }
    });
  }

  it("an answer asn1js throws on (not just reports as unparsable) is 'not an RFC 3161 response' too", async () => {
    // Random bytes sometimes make asn1js throw ("byte length of Uint32Array should be a multiple of 4") instead
    // of returning offset -1; find such an answer, then serve exactly it through the injected fetch.
    let hostile: Buffer | undefined;
    for (let i = 0; i < 100_000 && !hostile; i++) {
      const candidate = randomBytes(700);
      try {
        asn1js.fromBER(candidate.slice().buffer);
      } catch {
        hostile = candidate;
      }
    }
    expect(hostile).toBeDefined();
    const fetchHostile: typeof fetch = async () =>
      new Response(new Uint8Array(hostile!), { status: 200, headers: { "Content-Type": "application/timestamp-reply" } });
    const sealed = await signPdf(original, instance, { evidence: { tsaUrls: [pki.tsaUrl], tsaTimeoutMs: 2_000, fetch: fetchHostile } });
    expect(sealed.evidence.level).toBe("B-B");
    expect(sealed.evidence.failure).toMatch(/not an RFC 3161 response/);
    expectFirstSignatureValid(sealed.bytes);
  });

  it("stopped: connection refused; the next URL in the list is tried; credentials go as Basic auth and never into a message", async () => {
    await pki.stopTsa();
    try {
      const secretUrl = pki.tsaUrl.replace("http://", "http://alice:s3cret@");
      const down = await signPdf(original, instance, { evidence: { tsaUrls: [secretUrl], tsaTimeoutMs: 2_000 } });
      expect(down.evidence.level).toBe("B-B");
      expect(down.evidence.failure).toMatch(/the request failed/);
      expect(down.evidence.failure).not.toContain("s3cret");
      expect(down.evidence.failure).not.toContain("alice");
    } finally {
      await pki.startTsa();
    }
    pki.seen.authorization.length = 0;
    const stoppedUrl = "http://127.0.0.1:1/tsa";
    const sealed = await signPdf(original, instance, {
      evidence: { tsaUrls: [stoppedUrl, pki.tsaUrl.replace("http://", "http://alice:s3cret@")], tsaTimeoutMs: 2_000 },
    });
    expect(sealed.evidence.level).toBe("B-LTA");
    expect(pki.seen.authorization[0]).toBe(`Basic ${Buffer.from("alice:s3cret").toString("base64")}`);
  });
});

describe("upgrade and renewal (incremental updates)", () => {
  it("a B-B seal made while the TSA was stopped reaches B-LTA later; the old file is a prefix and its seal stays valid", async () => {
    await pki.stopTsa();
    let sealed;
    try {
      sealed = await signPdf(original, instance, { evidence: { ...config, tsaTimeoutMs: 1_000 } });
      expect(sealed.evidence.level).toBe("B-B");
      await expect(upgradeEvidence(sealed.bytes, { ...config, tsaTimeoutMs: 1_000 })).rejects.toBeInstanceOf(EvidenceUnavailableError);
    } finally {
      await pki.startTsa();
    }
    const upgraded = await upgradeEvidence(sealed.bytes, config);
    expect(upgraded.evidence.level).toBe("B-LTA");
    expect(upgraded.evidence.timestamps.map((t) => t.kind)).toEqual(["document", "document"]);
    expect(Buffer.from(upgraded.bytes.subarray(0, sealed.bytes.length)).equals(Buffer.from(sealed.bytes))).toBe(true);
    expect(expectEveryTokenVerifies(upgraded.bytes)).toBe(2);
    expectFirstSignatureValid(upgraded.bytes);
    expectQpdfClean(upgraded.bytes);
    expect(dss(upgraded.bytes).certs).toBeGreaterThanOrEqual(3);
    expect((await inspectEvidence(upgraded.bytes)).level).toBe("B-LTA");
    expect(await verifySealed(upgraded.bytes, [instance.certificateDer])).toEqual({ signed: true, intact: true, signerMatches: true });
    // The pre-upgrade copy still verifies on its own.
    expect(await verifySealed(sealed.bytes, [instance.certificateDer])).toEqual({ signed: true, intact: true, signerMatches: true });

    const renewed = await renewEvidence(upgraded.bytes, config);
    expect(Buffer.from(renewed.bytes.subarray(0, upgraded.bytes.length)).equals(Buffer.from(upgraded.bytes))).toBe(true);
    expect(signatures(renewed.bytes).filter((s) => s.docTimeStamp)).toHaveLength(3);
    expect(renewed.evidence.level).toBe("B-LTA");
    expect(expectEveryTokenVerifies(renewed.bytes)).toBe(3);
    expectFirstSignatureValid(renewed.bytes);
    expectQpdfClean(renewed.bytes);
  });

  it("renewal of a fresh B-LTA seal adds a second document time-stamp", async () => {
    const sealed = await signPdf(original, operator, { evidence: config });
    const renewed = await renewEvidence(sealed.bytes, config);
    expect(signatures(renewed.bytes).filter((s) => s.docTimeStamp)).toHaveLength(2);
    expect(renewed.evidence.timestamps.map((t) => t.kind)).toEqual(["signature", "document", "document"]);
    expect(expectEveryTokenVerifies(renewed.bytes)).toBe(3);
    await pki.stopTsa();
    try {
      await expect(renewEvidence(renewed.bytes, { ...config, tsaTimeoutMs: 1_000 })).rejects.toThrow(/no time-stamping authority answered usefully/);
    } finally {
      await pki.startTsa();
    }
  });
});

describe("verifySealed and inspectEvidence on altered files", () => {
  it("a page changed by an update after the evidence is not intact; a corrupted document time-stamp is reported", async () => {
    const sealed = await signPdf(original, instance, { evidence: config });
    const pdf = await PDF.load(sealed.bytes);
    pdf.getPage(0)!.drawRectangle({ x: 10, y: 10, width: 50, height: 50, color: rgb(1, 0, 0) });
    const changed = await pdf.save({ incremental: true });
    expect(Buffer.from(changed.subarray(0, sealed.bytes.length)).equals(Buffer.from(sealed.bytes))).toBe(true);
    expect(await verifySealed(changed, [instance.certificateDer])).toMatchObject({ signed: true, intact: false });

    const corrupted = sealed.bytes.slice();
    const ts = signatures(corrupted).find((s) => s.docTimeStamp)!;
    const at = ts.range[1]! + 200; // inside the token's hex
    corrupted[at] = corrupted[at] === 0x41 ? 0x42 : 0x41;
    const inspected = await inspectEvidence(corrupted);
    expect(inspected.timestamps.find((t) => t.kind === "document")?.valid).toBe(false);
    expect(inspected.level).toBe("B-LT");
    expect((await verifySealed(corrupted, [instance.certificateDer])).intact).toBe(false);
  });
});

describe("sealPackage with evidence", () => {
  const text = (bytes: Uint8Array) => runTool("pdftotext", ["-enc", "UTF-8", write(bytes), "-"]).out.replace(/\s+/g, " ");

  it("every output (document, merged, certificate) reaches B-LTA; the certificates print the level and the trusted times", async () => {
    const documents = [{ id: "d1", name: "Agreement.pdf", original, fields: [] }];
    const result = await sealPackage({ documents, certificate: certificateData(), identity: instance }, { evidence: config });
    const outputs = [...result.documents, result.merged, result.certificate];
    for (const out of outputs) {
      expect(out.evidence.level).toBe("B-LTA");
      expect(expectEveryTokenVerifies(out.bytes)).toBe(2);
      expectFirstSignatureValid(out.bytes);
    }
    const docTime = result.documents[0]!.evidence.timestamps[0]!.time.toISOString();
    const shown = `${docTime.slice(0, 10)} ${docTime.slice(11, 19)} UTC`;
    const authority = subjectOf(pki.tsaCertificateDer);
    expect(text(result.documents[0]!.bytes)).toContain("Evidence level: PAdES B-LTA (targeted)");
    expect(text(result.merged.bytes)).toContain(`Evidence level: PAdES B-LTA; trusted time ${shown} from ${authority}`);
    const onCertificate = text(result.certificate.bytes);
    expect(onCertificate).toContain(`Evidence level: PAdES B-LTA; trusted time ${shown} from ${authority}`);
    expect(onCertificate).toContain("Merged PDF");
  });

  it("without a TSA: B-B everywhere and the certificate says there is no trusted time", async () => {
    const documents = [{ id: "d1", name: "Agreement.pdf", original, fields: [] }];
    const result = await sealPackage({ documents, certificate: certificateData(), identity: instance });
    for (const out of [...result.documents, result.merged, result.certificate]) expect(out.evidence).toEqual({ level: "B-B", timestamps: [] });
    expect(text(result.certificate.bytes)).toContain("No trusted time-stamp: sealed with this server's clock (PAdES B-B)");
  });

  it("the TSA stopped: the package still seals, at B-B, each output saying why", async () => {
    await pki.stopTsa();
    try {
      const documents = [{ id: "d1", name: "Agreement.pdf", original, fields: [] }];
      const result = await sealPackage({ documents, certificate: certificateData(), identity: instance }, { evidence: { ...config, tsaTimeoutMs: 1_000 } });
      for (const out of [...result.documents, result.merged, result.certificate]) {
        expect(out.evidence.level).toBe("B-B");
        expect(out.evidence.failure).toMatch(/no time-stamping authority answered usefully/);
        expectFirstSignatureValid(out.bytes);
      }
      expect(text(result.certificate.bytes)).toContain("No trusted time-stamp yet (time-stamping authority unavailable), added later");
    } finally {
      await pki.startTsa();
    }
  });
});

describe("the TSA failing between the two time-stamps", () => {
  /** A fetch that fails the n-th request to `url` (counting from 1) and passes everything else through. */
  const failingNth = (url: string, n: number): typeof fetch => {
    let calls = 0;
    return (input, init) => {
      if (String(input) === url && ++calls === n) return Promise.reject(new TypeError("fetch failed", { cause: { code: "ECONNRESET" } }));
      return fetch(input, init);
    };
  };

  it("the document time-stamp fails: B-T with the reason; the upgrade then needs one round to reach B-LTA", async () => {
    const sealed = await signPdf(original, instance, { evidence: { ...config, fetch: failingNth(pki.tsaUrl, 2) } });
    expect(sealed.evidence.level).toBe("B-T");
    expect(sealed.evidence.failure).toMatch(/ECONNRESET/);
    expect(sealed.evidence.timestamps.map((t) => t.kind)).toEqual(["signature"]);
    expect(expectEveryTokenVerifies(sealed.bytes)).toBe(1);
    expect((await inspectEvidence(sealed.bytes)).level).toBe("B-T");
    const upgraded = await upgradeEvidence(sealed.bytes, config);
    expect(upgraded.evidence.level).toBe("B-LTA");
    expect(upgraded.evidence.timestamps.map((t) => t.kind)).toEqual(["signature", "document"]);
    expect(Buffer.from(upgraded.bytes.subarray(0, sealed.bytes.length)).equals(Buffer.from(sealed.bytes))).toBe(true);
    expect(expectEveryTokenVerifies(upgraded.bytes)).toBe(2);
    expectFirstSignatureValid(upgraded.bytes);
    expectQpdfClean(upgraded.bytes);
  });

  it("the second URL answers the document time-stamp: its TSA's chain and revocation data go into the DSS too", async () => {
    const second = await startLoopbackPki();
    try {
      const sealed = await signPdf(original, instance, {
        evidence: { tsaUrls: [pki.tsaUrl, second.tsaUrl], tsaTimeoutMs: 5_000, fetch: failingNth(pki.tsaUrl, 2) },
      });
      expect(sealed.evidence.level).toBe("B-LTA");
      expect(sealed.evidence.timestamps.map((t) => t.authority)).toEqual([subjectOf(pki.tsaCertificateDer), subjectOf(second.tsaCertificateDer)]);
      const text = Buffer.from(sealed.bytes).toString("latin1");
      expect(text.match(/\/Type \/DSS/g)?.length).toBe(2);
      expect(dss(sealed.bytes).certs).toBeGreaterThanOrEqual(5); // seal, TSA + CA of each PKI
      expect(second.seen.ocsp).toBeGreaterThanOrEqual(1);
      expect(opensslTsVerify(sealCms(sealed.bytes).token!, createHash("sha256").update(sealCms(sealed.bytes).signatureValue).digest("hex"))).toContain(
        "Verification: OK",
      );
      const docTs = signatures(sealed.bytes).find((x) => x.docTimeStamp)!;
      const file = path.join(dir, `tok${++fileNo}.der`);
      writeFileSync(file, docTs.contents);
      expect(
        runTool("openssl", ["ts", "-verify", "-digest", rangesDigest(sealed.bytes, docTs.range), "-in", file, "-token_in", "-CAfile", second.caCertificatePath])
          .out,
      ).toContain("Verification: OK");
      expectFirstSignatureValid(sealed.bytes);
      expectQpdfClean(sealed.bytes);
      expect(await verifySealed(sealed.bytes, [instance.certificateDer])).toEqual({ signed: true, intact: true, signerMatches: true });
    } finally {
      await second.close();
    }
  });
});

describe("placeholder room", () => {
  it("a token larger than the room reserved: the seal and the document time-stamp are placed again with the room they need", async () => {
    const session = { revocationCache: new Map(), tokenBytes: 10 };
    const sealed = await signPdf(original, instance, { evidence: config, session });
    expect(sealed.evidence.level).toBe("B-LTA");
    expect(session.tokenBytes).toBeGreaterThan(1000);
    expect(expectEveryTokenVerifies(sealed.bytes)).toBe(2);

    const strictOnly = await signPdf(original, instance);
    const tsa = createTsaClient(config);
    const round = await sealArchive(strictOnly.bytes, [instance.certificateDer], tsa, config, { revocationCache: new Map(), tokenBytes: 10 });
    expect(signatures(round.bytes).filter((x) => x.docTimeStamp)).toHaveLength(1);
    expect(expectEveryTokenVerifies(round.bytes)).toBe(1);
    expectQpdfClean(round.bytes);
  });
});
