/**
 * Copies pdf.js's worker and the data it fetches at run time (character maps, standard fonts, image decoders'
 * WebAssembly) from node_modules/pdfjs-dist into public/pdfjs/, so the browser loads them from this server:
 * no CDN, works offline, and always the same version as the pdf.js API in the bundle (Turbopack does not emit
 * a worker referenced by `new URL(…, import.meta.url)` unless it is constructed with `new Worker`).
 * Runs on postinstall and before `next build` / `next dev`; public/pdfjs/ is not committed.
 */
import { cpSync, existsSync, mkdirSync, rmSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const source = path.join(root, "node_modules", "pdfjs-dist");
const target = path.join(root, "public", "pdfjs");

if (!existsSync(source)) {
  console.error("pdfjs-dist is not installed: run npm install");
  process.exit(1);
}
rmSync(target, { recursive: true, force: true });
mkdirSync(target, { recursive: true });
cpSync(path.join(source, "build", "pdf.worker.min.mjs"), path.join(target, "pdf.worker.min.mjs"));
for (const dir of ["cmaps", "standard_fonts", "wasm"]) {
  if (existsSync(path.join(source, dir))) cpSync(path.join(source, dir), path.join(target, dir), { recursive: true });
}
