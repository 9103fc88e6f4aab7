/**
 * The loopback PKI (loopback-pki.ts) in a process of its own, for benchmarks: a real TSA and OCSP responder
 * run elsewhere, so their CPU is not the sealing process's. Prints one JSON line ({ tsaUrl, caCertificatePath,
 * seen }) when ready, then answers "seen" on stdin with the request counts; exits when stdin closes.
 *
 *   node --import tsx server/pdf/test-support/loopback-pki-process.ts
 */
import { createInterface } from "node:readline";
import { startLoopbackPki } from "./loopback-pki";

const pki = await startLoopbackPki();
console.log(JSON.stringify({ tsaUrl: pki.tsaUrl, caCertificatePath: pki.caCertificatePath }));
const lines = createInterface({ input: process.stdin });
lines.on("line", (line) => {
  if (line.trim() === "seen") console.log(JSON.stringify(pki.seen));
});
lines.on("close", () => void pki.close().then(() => process.exit(0)));
