/**
 * The sealing engine against the real tools a recipient or auditor would use: poppler's pdfsig must call every
 * output's one PAdES signature valid and any changed byte invalid; qpdf --check must pass; pdftotext must find
 * typed names in Latin, Cyrillic, CJK and Arabic and the certificate's text; page counts must add up; the
 * original bytes must come out unchanged. Protects the "sealed PDFs that a third-party tool verifies".
 */
import { createHash } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { PDF } from "@libpdf/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { certificateData, makeOriginal, makeSignaturePng, memorySigningKeyStore, NAMES, recipientFields, runTool } from "@/server/test/sealing-fixtures";
import { loadOrCreateSigningIdentity } from "./load-or-create-signing-identity";
import { sealPackage, type TSealPackageResult } from "./seal-package";
import type { TSealDocumentInput, TSigningIdentity } from "./types";
import { verifySealed } from "./verify-sealed";

const dir = mkdtempSync(path.join(tmpdir(), "foliosign-seal-"));
const sha = (b: Uint8Array) => createHash("sha256").update(b).digest("hex");
const write = (name: string, bytes: Uint8Array) => {
  const file = path.join(dir, name);
  writeFileSync(file, bytes);
  return file;
};
/** pdftotext's text without the bidi embedding marks it wraps right-to-left runs in. */
const text = (file: string) => runTool("pdftotext", ["-enc", "UTF-8", file, "-"]).out.replace(/[\u200e\u200f\u202a-\u202e]/g, "");
const pages = (file: string) => Number(/Pages:\s+(\d+)/.exec(runTool("pdfinfo", [file]).out)?.[1]);

let identity: TSigningIdentity;
let result: TSealPackageResult;
let documents: TSealDocumentInput[];
let originalHashes: string[];

const signerOne = `${NAMES.latin} ${NAMES.cyrillic}`;
const signerTwo = `${NAMES.arabic}`;

beforeAll(async () => {
  identity = await loadOrCreateSigningIdentity(memorySigningKeyStore());
  const png = makeSignaturePng();
  documents = [
    {
      id: "doc_1",
      name: "Agreement.pdf",
      original: await makeOriginal(5, { withForm: true }),
      fields: [
        ...recipientFields(5, signerOne, "zoe@example.com", png, 0),
        ...recipientFields(5, signerTwo, "m.abdallah@example.com", png, 1),
        { type: "name", text: `${NAMES.chinese} ${NAMES.japanese}`, pageIndex: 0, x: 300, y: 40, width: 240, height: 24 },
      ],
    },
    { id: "doc_2", name: "Annex – 附件.pdf", original: await makeOriginal(2), fields: [] },
  ];
  originalHashes = documents.map((d) => sha(d.original));
  result = await sealPackage({ documents, certificate: certificateData(), identity });
}, 120_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("sealPackage", () => {
  it("leaves the original bytes unchanged", () => {
    expect(documents.map((d) => sha(d.original))).toEqual(originalHashes);
  });

  it("gives every output exactly one valid ETSI.CAdES.detached signature covering the whole file (pdfsig)", () => {
    const outputs = { "doc1.pdf": result.documents[0]!, "doc2.pdf": result.documents[1]!, "merged.pdf": result.merged, "cert.pdf": result.certificate };
    for (const [name, file] of Object.entries(outputs)) {
      const { code, out } = runTool("pdfsig", [write(name, file.bytes)]);
      expect(code, `${name}: ${out}`).toBe(0);
      expect(out.match(/Signature #\d+:/g), name).toHaveLength(1);
      expect(out).toContain("Signature Type: ETSI.CAdES.detached");
      expect(out).toContain("Total document signed");
      expect(out).toContain("Signature Validation: Signature is Valid.");
      expect(file.sha256).toBe(sha(file.bytes));
    }
  });

  it("passes qpdf --check", () => {
    for (const [name, bytes] of [
      ["doc1", result.documents[0]!.bytes],
      ["merged", result.merged.bytes],
      ["cert", result.certificate.bytes],
    ] as const) {
      const { code, out } = runTool("qpdf", ["--check", write(`${name}-q.pdf`, bytes)]);
      expect(code, out).toBe(0);
      expect(out).toContain("No syntax or stream encoding errors found");
    }
  });

  it("has the document pages followed by the certificate pages", () => {
    const certPages = pages(write("c.pdf", result.certificate.bytes));
    expect(certPages).toBeGreaterThanOrEqual(1);
    expect(pages(write("d1.pdf", result.documents[0]!.bytes))).toBe(5 + certPages);
    expect(pages(write("d2.pdf", result.documents[1]!.bytes))).toBe(2 + certPages);
    expect(pages(write("m.pdf", result.merged.bytes))).toBe(5 + 2 + certPages);
    expect(result.documents.map((d) => d.documentPages)).toEqual([5, 2]);
  });

  it("draws typed names in Latin, Cyrillic, CJK and Arabic as real text, and keeps the flattened form value", () => {
    const firstPages = runTool("pdftotext", ["-enc", "UTF-8", "-l", "5", write("d1-t.pdf", result.documents[0]!.bytes), "-"]).out.replace(
      /[\u200e\u200f\u202a-\u202e]/g,
      "",
    );
    for (const name of [NAMES.latin, NAMES.cyrillic, NAMES.arabic, NAMES.chinese, "山田太郎", "やまだ", "zoe@example.com"]) {
      expect(firstPages, name).toContain(name);
    }
    expect(firstPages).toContain("ACME Form Value");
    const fonts = runTool("pdffonts", [path.join(dir, "d1-t.pdf")]).out;
    expect(fonts).toMatch(/NotoSansArabic/);
    expect(fonts).toMatch(/NotoSansCJKjp/);
  });

  it("prints the certificate: package, hashes, recipients, events and chain head; a file never lists its own hash", () => {
    const data = certificateData();
    const onDoc = text(write("d1-c.pdf", result.documents[0]!.bytes));
    for (const s of ["Certificate of completion", data.packageId, data.auditChainHead, "203.0.113.7", "Europe/Paris", "SESSION_OPENED", ...originalHashes]) {
      expect(onDoc, s).toContain(s);
    }
    expect(onDoc).not.toContain(result.documents[0]!.sha256);
    const onMerged = text(write("m-c.pdf", result.merged.bytes));
    for (const d of result.documents) expect(onMerged).toContain(d.sha256);
    expect(onMerged).not.toContain(result.merged.sha256);
    const onCert = text(write("c-c.pdf", result.certificate.bytes));
    expect(onCert).toContain(result.merged.sha256);
    for (const d of result.documents) expect(onCert).toContain(d.sha256);
  });

  it("verifySealed: intact and ours; one flipped byte → pdfsig invalid and not intact; another signer → not ours", async () => {
    const bytes = result.merged.bytes;
    expect(await verifySealed(bytes, [identity.certificateDer])).toEqual({ signed: true, intact: true, signerMatches: true });

    const tampered = bytes.slice();
    const at = Math.floor(bytes.length / 10); // inside the first signed range (the signature value sits near the end)
    tampered[at] = tampered[at]! ^ 0x20;
    const file = write("tampered.pdf", tampered);
    const { out } = runTool("pdfsig", [file]);
    expect(out).not.toContain("Signature is Valid.");
    expect(out).toMatch(/Signature Validation: (Digest Mismatch|Signature is Invalid)/);
    const verdict = await verifySealed(tampered, [identity.certificateDer]);
    expect(verdict.intact).toBe(false);

    const other = await loadOrCreateSigningIdentity(memorySigningKeyStore());
    expect(await verifySealed(bytes, [other.certificateDer])).toMatchObject({ signed: true, intact: true, signerMatches: false });
  });

  it("verifySealed: a file signed again after sealing is signed but not intact", async () => {
    const pdf = await PDF.load(result.certificate.bytes);
    const resigned = await pdf.sign({ signer: identity.signer, fieldName: "Someone else" });
    expect(runTool("pdfsig", [write("resigned.pdf", resigned.bytes)]).out.match(/Signature #\d+:/g)).toHaveLength(2);
    expect(await verifySealed(resigned.bytes, [identity.certificateDer])).toMatchObject({ signed: true, intact: false });
  });

  it("verifySealed: an appended update after sealing is not intact", async () => {
    const appended = new Uint8Array([...result.certificate.bytes, ...Buffer.from("\n% appended\n")]);
    expect((await verifySealed(appended, [identity.certificateDer])).intact).toBe(false);
  });
});
