/**
 * Downloads name themselves for every client (issue 25, point 6): `Content-Disposition` carries the exact UTF-8
 * name in `filename*` and a plain ASCII `filename` fallback, so `curl -OJ` (which reads only `filename`) saves
 * `Lease 4B - certificate.pdf`, not `certificate` without an extension. Checked with the real curl against a
 * loopback server that answers with our response headers.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TFileStore } from "@/server/storage/file-store";
import { contentDisposition, pdfResponse, zipResponse } from "./file-response";

const run = promisify(execFile);

let server: Server;
let base = "";
let headers: Headers = new Headers();
beforeAll(async () => {
  server = createServer((_req, res) => {
    headers.forEach((value, name) => res.setHeader(name, value));
    res.setHeader("content-length", "4");
    res.end("%PDF");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

/** A PDF answer's 200 headers, made from the file's details alone (the store is never asked for them). */
const unopened = { store: null as unknown as TFileStore, key: "files/unused" };
const pdf = (name: string) => ({
  headers: new Headers(pdfResponse({ name, file: unopened }, { disposition: "attachment" }).headers({ size: 4, sha256: "ab" })),
});

/** What `curl -OJ <url>` saves, in a fresh directory. */
async function curlSaves(url: string): Promise<string[]> {
  const dir = mkdtempSync(path.join(os.tmpdir(), "foliosign-curl-"));
  try {
    await run("curl", ["-sS", "-OJ", url], { cwd: dir });
    return readdirSync(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe("Content-Disposition of downloads", () => {
  it("gives filename (ASCII) and filename* (UTF-8)", () => {
    expect(contentDisposition("attachment", "Lease 4B - certificate.pdf")).toBe(
      `attachment; filename="Lease 4B - certificate.pdf"; filename*=UTF-8''Lease%204B%20-%20certificate.pdf`,
    );
    expect(contentDisposition("inline", 'Café "Größe" – 渋谷.pdf')).toBe(
      `inline; filename="Cafe _Gro_e_ _ __.pdf"; filename*=UTF-8''Caf%C3%A9%20%22Gr%C3%B6%C3%9Fe%22%20%E2%80%93%20%E6%B8%8B%E8%B0%B7.pdf`,
    );
  });

  it("curl -OJ saves the certificate with its name and .pdf extension", async () => {
    headers = pdf("Lease 4B - certificate.pdf").headers;
    expect(await curlSaves(`${base}/api/v1/packages/pkg_1/certificate`)).toEqual(["Lease 4B - certificate.pdf"]);
  });

  it("curl -OJ saves a non-ASCII name under its ASCII fallback, and a zip as .zip", async () => {
    headers = pdf("Mietvertrag Müller – Überblick.pdf").headers;
    expect(await curlSaves(`${base}/api/v1/packages/pkg_1/download`)).toEqual(["Mietvertrag Muller _ Uberblick.pdf"]);
    headers = zipResponse({ name: "Lease 4B.zip", size: 4, body: Readable.from([Buffer.from("PK")]) }).response.headers;
    expect(await curlSaves(`${base}/api/v1/packages/pkg_1/download/zip`)).toEqual(["Lease 4B.zip"]);
  });
});
