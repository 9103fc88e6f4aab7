/**
 * Sealing benchmark: a 20-page document, two recipients with 10 fields each (signature image and typed, initials,
 * date, name, email, free text, checkboxes; names in Latin, Cyrillic, Arabic and CJK), sealed in-process.
 *
 *   npm run bench:sealing -- [runs=7]
 *
 * Prints p50 / min / max over `runs` measured runs after one discarded warm-up (which also loads the fonts and
 * the HarfBuzz module once, as a long-running worker would), for:
 *   - sealPdf: one document + its certificate, one signature;
 *   - sealPackage: everything the package stores (the sealed document, the merged PDF, the standalone
 *     certificate: three signatures, three certificate renderings).
 * No database, no network: the signing identity is an instance certificate in an in-memory store.
 */
import { cpus } from "node:os";
import { loadFontSet } from "@/server/pdf/load-font-set";
import { loadOrCreateSigningIdentity } from "@/server/pdf/load-or-create-signing-identity";
import { sealPackage } from "@/server/pdf/seal-package";
import { sealPdf } from "@/server/pdf/seal-pdf";
import { certificateData, makeOriginal, makeSignaturePng, memorySigningKeyStore, NAMES, recipientFields } from "@/server/test/sealing-fixtures";

process.env.ENCRYPTION_KEY ??= "00".repeat(32);
const runs = Number(process.argv[2] ?? 7);

function stats(ms: number[]) {
  const s = [...ms].sort((a, b) => a - b);
  const p50 = s[Math.floor((s.length - 1) / 2)]!;
  return `p50 ${p50.toFixed(0)} ms (min ${s[0]!.toFixed(0)}, max ${s[s.length - 1]!.toFixed(0)}, n=${s.length})`;
}

const fontStart = performance.now();
loadFontSet();
const fontMs = performance.now() - fontStart;
const identity = await loadOrCreateSigningIdentity(memorySigningKeyStore());
const png = makeSignaturePng();
const original = await makeOriginal(20);
const fields = [
  ...recipientFields(20, `${NAMES.latin} ${NAMES.cyrillic}`, "zoe@example.com", png, 0),
  ...recipientFields(20, `${NAMES.arabic} ${NAMES.chinese}`, "m.abdallah@example.com", png, 1),
];
const document = { id: "doc_1", name: "Agreement.pdf", original, fields };
const data = certificateData({ documents: [{ name: document.name, pages: 20, originalSha256: "0".repeat(64) }] });

const sizes: Record<string, number> = {};
const single: number[] = [];
const whole: number[] = [];
for (let i = 0; i <= runs; i++) {
  let t = performance.now();
  const sealed = await sealPdf({ document, certificate: data, identity });
  const singleMs = performance.now() - t;
  t = performance.now();
  const all = await sealPackage({ documents: [document], certificate: certificateData(), identity });
  const wholeMs = performance.now() - t;
  if (i === 0) {
    sizes.original = original.length;
    sizes.sealed = sealed.bytes.length;
    sizes.merged = all.merged.bytes.length;
    sizes.certificate = all.certificate.bytes.length;
    continue; // warm-up
  }
  single.push(singleMs);
  whole.push(wholeMs);
}

console.log(
  `sealing bench: 20 pages, 2 recipients × 10 fields, ${runs} runs after 1 warm-up, node ${process.version}, ${cpus().length} CPUs (${cpus()[0]?.model ?? "?"})`,
);
console.log(`  font files loaded once: ${fontMs.toFixed(0)} ms`);
console.log(`  sealPdf (render certificate + stamp + append + sign): ${stats(single)}`);
console.log(`  sealPackage (document + merged + standalone certificate): ${stats(whole)}`);
console.log(
  `  sizes: original ${(sizes.original! / 1024).toFixed(0)} KiB, sealed ${(sizes.sealed! / 1024).toFixed(0)} KiB, merged ${(sizes.merged! / 1024).toFixed(0)} KiB, certificate ${(sizes.certificate! / 1024).toFixed(0)} KiB`,
);
const mem = process.memoryUsage();
console.log(
  `  memory at the end: RSS ${(mem.rss / 1048576).toFixed(0)} MiB, JS heap ${(mem.heapUsed / 1048576).toFixed(0)} MiB, array buffers ${(mem.arrayBuffers / 1048576).toFixed(0)} MiB`,
);
