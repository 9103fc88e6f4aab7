/**
 * One fenced fast path (docs/architecture.md, issue 19): server/db/driver/ holds the only files of the app that
 * may touch drizzle's session (`db._.session`), `sqlToQuery` (and the `PgDialect` it is called on), drizzle's
 * prepared statements (`.prepare("name")`, the driver sessions, `prepare: true`) or a driver's `unsafe` /
 * `reserve`. Everything else is plain drizzle or calls server/db/driver. This scans every source file of the app
 * (server, app, components, common, lib, scripts and the root config files) and fails naming each other file
 * that mentions one of them. Tests (`*.test.ts(x)`, server/test/, e2e/) and bench/ are tooling: they open raw
 * postgres.js clients to create and drop scratch databases, and are not scanned.
 * And one door: every file outside server/db/driver/ (tooling included) imports it through its index, so the
 * folder's split into modules stays its own business.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = process.cwd();
const DRIVER = "server/db/driver/";
const SCANNED_DIRS = ["server", "app", "components", "common", "lib", "scripts"];
const SOURCE = /\.(ts|tsx|mts|cts|js|mjs|cjs)$/;

/** What only server/db/driver/ may write, each with the name the failure gives it. */
const FENCED: [string, RegExp][] = [
  ["drizzle's session (`_.session`)", /\b_\s*\??\.\s*session\b/],
  ["`sqlToQuery`", /\bsqlToQuery\b/],
  ["`PgDialect`", /\bPgDialect\b/],
  ["a driver session class", /\b(PostgresJsSession|PgliteSession|PgSession)\b/],
  ["a driver's `unsafe`", /\.\s*unsafe\s*\(/],
  ["a reserved connection (`reserve`)", /\.\s*reserve\s*\(/],
  ['a named prepared statement (`.prepare("name")`)', /\.\s*prepare\s*\(\s*["'`]/],
  ["`prepare: true|false`", /\bprepare\s*:\s*(true|false)\b/],
];

function isTooling(rel: string): boolean {
  return /\.test\.(ts|tsx)$/.test(rel) || rel.startsWith("server/test/");
}

function sourceFiles(): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    let entries: string[];
    try {
      entries = readdirSync(path.join(ROOT, dir));
    } catch {
      return; // a folder the project does not have (yet)
    }
    for (const name of entries) {
      if (name === "node_modules" || name.startsWith(".")) continue;
      const rel = `${dir}/${name}`;
      if (statSync(path.join(ROOT, rel)).isDirectory()) walk(rel);
      else if (SOURCE.test(name) && !isTooling(rel)) out.push(rel);
    }
  };
  for (const dir of SCANNED_DIRS) walk(dir);
  for (const name of readdirSync(ROOT)) if (SOURCE.test(name) && statSync(path.join(ROOT, name)).isFile()) out.push(name);
  return out;
}

function mentions(text: string): string[] {
  return FENCED.filter(([, pattern]) => pattern.test(text)).map(([what]) => what);
}

describe("the driver fence", () => {
  it("only server/db/driver/ touches drizzle's session, sqlToQuery, prepared statements or unsafe", () => {
    const files = sourceFiles();
    expect(files).toContain(`${DRIVER}index.ts`);
    const offenders = files
      .filter((f) => !f.startsWith(DRIVER))
      .map((f) => ({ file: f, uses: mentions(readFileSync(path.join(ROOT, f), "utf8")) }))
      .filter((o) => o.uses.length > 0)
      .map((o) => `${o.file}: ${o.uses.join(", ")} — move it into ${DRIVER} or use plain drizzle`);
    expect(offenders).toEqual([]);
  });

  it("recognises what server/db/driver/ itself does (so the scan cannot silently match nothing)", () => {
    const driverFiles = sourceFiles().filter((f) => f.startsWith(DRIVER));
    const uses = mentions(driverFiles.map((f) => readFileSync(path.join(ROOT, f), "utf8")).join("\n"));
    for (const what of ["drizzle's session (`_.session`)", "`sqlToQuery`", "a driver session class", "a driver's `unsafe`", "`prepare: true|false`"]) {
      expect(uses, what).toContain(what);
    }
  });

  it("catches each fenced use in any other file", () => {
    const cases = [
      "const s = db._.session;",
      "const { sql } = new PgDialect().sqlToQuery(q);",
      "await client.unsafe(text, params);",
      "const conn = await client.reserve();",
      'const p = db.select().from(t).prepare("list_page");',
      "await client.unsafe(text, params, { prepare: true });",
      "if (is(session, PostgresJsSession)) {}",
    ];
    for (const code of cases) expect(mentions(code), code).not.toEqual([]);
    // Next's `app.prepare()` and plain drizzle are not fenced.
    expect(mentions("await app.prepare();\nawait db.select().from(packages).where(eq(packages.id, id));")).toEqual([]);
  });
});

/** Every source file of the repository outside server/db/driver/, tests, bench/ and e2e/ included. */
function allFilesOutsideDriver(): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(path.join(ROOT, dir))) {
      if (name === "node_modules" || name.startsWith(".")) continue;
      const rel = dir ? `${dir}/${name}` : name;
      if (statSync(path.join(ROOT, rel)).isDirectory()) {
        if (`${rel}/` !== DRIVER) walk(rel);
      } else if (SOURCE.test(name)) out.push(rel);
    }
  };
  walk("");
  return out;
}

/** The modules of server/db/driver/ a file imports by path instead of through its index ("@/server/db/driver"). */
function driverModulesImported(file: string, text: string): string[] {
  const found: string[] = [];
  for (const m of text.matchAll(/(?:\bfrom|\bimport)\s*\(?\s*["']([^"']+)["']/g)) {
    const spec = m[1]!;
    const target = spec.startsWith("@/") ? spec.slice(2) : spec.startsWith(".") ? path.posix.join(path.posix.dirname(file), spec) : null;
    if (target === null || !target.startsWith(DRIVER)) continue;
    if (target.slice(DRIVER.length).replace(/\.(ts|js)$/, "") !== "index") found.push(spec);
  }
  return found;
}

describe("the driver's one door", () => {
  it("everything outside server/db/driver/ imports its index, not the modules behind it", () => {
    const files = allFilesOutsideDriver();
    expect(files).toContain("server/db/client.ts");
    // This file names such imports in its examples below.
    const offenders = files
      .filter((f) => f !== "server/test/driver-fence.test.ts")
      .flatMap((f) =>
        driverModulesImported(f, readFileSync(path.join(ROOT, f), "utf8")).map((spec) => `${f}: imports ${spec} — import "@/server/db/driver" instead`),
      );
    expect(offenders).toEqual([]);
  });

  it("tells a module import from the index, by alias and by relative path", () => {
    expect(driverModulesImported("server/x.ts", 'import { queryRows } from "@/server/db/driver/rows";')).toEqual(["@/server/db/driver/rows"]);
    expect(driverModulesImported("server/db/x.ts", "const m = await import('./driver/prepared');")).toEqual(["./driver/prepared"]);
    expect(driverModulesImported("server/jobs/x.ts", 'export { copyRowsIn } from "../db/driver/copy.ts";')).toEqual(["../db/driver/copy.ts"]);
    expect(driverModulesImported("server/x.ts", 'import { queryRows } from "@/server/db/driver";\nimport { x } from "@/server/db/driver/index";')).toEqual([]);
    expect(driverModulesImported("server/x.ts", 'import { x } from "@/server/db/driver-helpers";')).toEqual([]);
  });
});
