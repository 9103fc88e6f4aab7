/**
 * `npm run lint:openapi`: builds the OpenAPI document from code (the same builder that serves
 * /api-reference/openapi.json), writes it to a temp file and lints it with Redocly (recommended rules,
 * redocly.yaml) and Spectral (spectral:oas, .spectral.yaml). A single error OR warning from either fails the
 * run, so no later operation can publish a document that integrators' tools trip on.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildOpenApiDocument } from "@/server/http/openapi";

const dir = mkdtempSync(join(tmpdir(), "foliosign-openapi-"));
const file = join(dir, "openapi.json");
writeFileSync(file, JSON.stringify(buildOpenApiDocument(), null, 2));
// No telemetry or update check: this machine (and CI) has no network beyond 127.0.0.1.
const env = { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true" };
const bin = (name: string) => join(process.cwd(), "node_modules", ".bin", name);

/** Redocly exits 0 on warnings, so its JSON totals decide; on any problem the readable report is printed. */
function redocly(): boolean {
  const res = spawnSync(bin("redocly"), ["lint", "--config", "redocly.yaml", "--format", "json", file], { env, encoding: "utf8" });
  let totals = { errors: -1, warnings: -1 };
  try {
    totals = (JSON.parse(res.stdout) as { totals: typeof totals }).totals;
  } catch {
    process.stderr.write(res.stderr);
  }
  if (totals.errors === 0 && totals.warnings === 0) {
    console.log("redocly lint: 0 errors, 0 warnings");
    return true;
  }
  spawnSync(bin("redocly"), ["lint", "--config", "redocly.yaml", "--format", "stylish", file], { env, stdio: "inherit" });
  return false;
}

function spectral(): boolean {
  const res = spawnSync(bin("spectral"), ["lint", "--ruleset", ".spectral.yaml", "--fail-severity", "warn", file], { env, stdio: "inherit" });
  return res.status === 0;
}

const ok = [redocly(), spectral()].every(Boolean);
rmSync(dir, { recursive: true, force: true });
process.exit(ok ? 0 : 1);
