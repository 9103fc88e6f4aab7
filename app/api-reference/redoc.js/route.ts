import { readFile } from "node:fs/promises";
import path from "node:path";

// Read once per process: the bundle is 1 MB and never changes while the server runs.
let bundle: Promise<string> | undefined;

/**
 * The bundle's sidebar footer loads Redocly's logo from cdn.redoc.ly: a third-party request from every reader's
 * browser (and an error offline). It becomes an empty inline image; the "API docs by Redocly" credit stays.
 */
const CDN_LOGO = "https://cdn.redoc.ly/redoc/logo-mini.svg";
const NO_IMAGE = "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' width='1' height='1'/%3E";

async function load(): Promise<string> {
  const source = await readFile(path.join(process.cwd(), "node_modules", "redoc", "bundles", "redoc.standalone.js"), "utf8");
  return source.replaceAll(CDN_LOGO, NO_IMAGE);
}

// GET /api-reference/redoc.js – Redoc's self-contained browser bundle, served by us (no CDN: instances may be offline)
export async function GET(): Promise<Response> {
  bundle ??= load();
  return new Response(await bundle, {
    headers: { "content-type": "text/javascript; charset=utf-8", "cache-control": "public, max-age=3600" },
  });
}
