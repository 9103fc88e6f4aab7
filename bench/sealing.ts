/**
 * Sealing benchmark: a 20-page document, two recipients with 10 fields each (signature image and typed, initials,
 * date, name, email, free text, checkboxes; names in Latin, Cyrillic, Arabic and CJK), sealed in-process.
 *
 *   npm run bench:sealing -- [runs=7]
 *
 * Prints p50 / p90 / min / max over `runs` measured runs after one discarded warm-up (which also loads the fonts
 * and the HarfBuzz module once, as a long-running worker would), for:
 *   - sealPdf: one document + its certificate, one signature (B-B);
 *   - sealPackage at PAdES B-B (no TSA) and at B-LTA (loopback TSA and CA, issue 20), interleaved in the same
 *     run — each run seals B-B then B-LTA, or B-LTA then B-B, alternating, so drift on a shared machine hits
 *     both — and the ratio of their p50s.
 * No database, no network beyond 127.0.0.1: the signing identity is an instance certificate in an in-memory
 * store; the TSA and the OCSP/CRL responder are server/pdf/test-support/loopback-pki.ts, run in a child process
 * (loopback-pki-process.ts) as a real TSA runs elsewhere; each OCSP answer spawns `openssl ocsp`.
 */
import { spawn } from "node:child_process";
import { once } from "node:events";
import { cpus } from "node:os";
import { createInterface } from "node:readline";
import { loadFontSet } from "@/server/pdf/load-font-set";
import { loadOrCreateSigningIdentity } from "@/server/pdf/load-or-create-signing-identity";
import { sealPackage } from "@/server/pdf/seal-package";
import { sealPdf } from "@/server/pdf/seal-pdf";
import { certificateData, makeOriginal, makeSignaturePng, memorySigningKeyStore, NAMES, recipientFields } from "@/server/test/sealing-fixtures";

process.env.ENCRYPTION_KEY ??= "00".repeat(32);
const runs = Number(process.argv[2] ?? 7);

function pick(ms: number[], q: number) {
  const s = [...ms].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil(q * s.length) - 1)]!;
}
function stats(ms: number[]) {
  const s = [...ms].sort((a, b) => a - b);
  return `p50 ${pick(ms, 0.5).toFixed(0)} ms, p90 ${pick(ms, 0.9).toFixed(0)} ms (min ${s[0]!.toFixed(0)}, max ${s[s.length - 1]!.toFixed(0)}, n=${s.length})`;
}

const fontStart = performance.now();
loadFontSet();
const fontMs = performance.now() - fontStart;
const child = spawn(process.execPath, ["--import", "tsx", "server/pdf/test-support/loopback-pki-process.ts"], { stdio: ["pipe", "pipe", "inherit"] });
const replies = createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
const next = async () => JSON.parse(((await replies.next()).value as string | undefined) ?? "null") as Record<string, unknown>;
const pki = (await next()) as { tsaUrl: string };
const evidence = { tsaUrls: [pki.tsaUrl], tsaTimeoutMs: 10_000 };
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
const bb: number[] = [];
const lta: number[] = [];
let seen: Record<string, unknown> = {};
try {
  for (let i = 0; i <= runs; i++) {
    let t = performance.now();
    const sealed = await sealPdf({ document, certificate: data, identity });
    const singleMs = performance.now() - t;
    const order = i % 2 === 0 ? (["B-B", "B-LTA"] as const) : (["B-LTA", "B-B"] as const);
    const times: Record<string, number> = {};
    for (const level of order) {
      t = performance.now();
      const all = await sealPackage({ documents: [document], certificate: certificateData(), identity }, level === "B-LTA" ? { evidence } : {});
      times[level] = performance.now() - t;
      const reached = [all.documents[0]!, all.merged, all.certificate].map((f) => f.evidence.level);
      if (reached.some((l) => l !== level)) throw new Error(`expected ${level}, got ${reached.join(", ")}: ${all.merged.evidence.failure ?? ""}`);
      if (i === 0) {
        sizes[`merged ${level}`] = all.merged.bytes.length;
        sizes[`certificate ${level}`] = all.certificate.bytes.length;
      }
    }
    if (i === 0) {
      sizes.original = original.length;
      sizes.sealed = sealed.bytes.length;
      continue; // warm-up
    }
    single.push(singleMs);
    bb.push(times["B-B"]!);
    lta.push(times["B-LTA"]!);
  }
} finally {
  child.stdin!.write("seen\n");
  seen = await next();
  child.stdin!.end();
  await once(child, "exit");
}

const kib = (n: number | undefined) => `${((n ?? 0) / 1024).toFixed(0)} KiB`;
console.log(
  `sealing bench: 20 pages, 2 recipients × 10 fields, ${runs} runs after 1 warm-up, node ${process.version}, ${cpus().length} CPUs (${cpus()[0]?.model ?? "?"})`,
);
console.log(`  font files loaded once: ${fontMs.toFixed(0)} ms`);
console.log(`  sealPdf (render certificate + stamp + append + sign, B-B): ${stats(single)}`);
console.log(`  sealPackage B-B   (document + merged + standalone certificate): ${stats(bb)}`);
console.log(`  sealPackage B-LTA (same, loopback TSA + OCSP):                  ${stats(lta)}`);
console.log(
  `  B-LTA / B-B p50: ${(pick(lta, 0.5) / pick(bb, 0.5)).toFixed(2)} (target ≤ 1.25); B-LTA p50 − B-B p50 = ${(pick(lta, 0.5) - pick(bb, 0.5)).toFixed(0)} ms`,
);
const paired = lta.map((t, i) => t / bb[i]!);
console.log(`  per-run B-LTA / B-B (each pair sealed back to back): median ${pick(paired, 0.5).toFixed(2)}, p90 ${pick(paired, 0.9).toFixed(2)}`);
console.log(`  loopback requests (TSA and OCSP in their own process): TSA ${seen.tsa}, OCSP ${seen.ocsp}, CRL ${seen.crl}`);
console.log(
  `  sizes: original ${kib(sizes.original)}, sealed ${kib(sizes.sealed)}, merged ${kib(sizes["merged B-B"])} (B-LTA ${kib(sizes["merged B-LTA"])}), certificate ${kib(sizes["certificate B-B"])} (B-LTA ${kib(sizes["certificate B-LTA"])})`,
);
const mem = process.memoryUsage();
console.log(
  `  memory at the end: RSS ${(mem.rss / 1048576).toFixed(0)} MiB, JS heap ${(mem.heapUsed / 1048576).toFixed(0)} MiB, array buffers ${(mem.arrayBuffers / 1048576).toFixed(0)} MiB`,
);
