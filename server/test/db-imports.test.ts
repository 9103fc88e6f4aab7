/**
 * No import circle through server/db's modules (issue 19, point 1). client.ts opens the handle and imports
 * driver/ and (when migrating) migrate.ts; driver/ and migrate.ts import neither client.ts nor each other's
 * importers, so each can be loaded alone. This follows every static and dynamic import (type-only ones too)
 * from server/db/*.ts and server/db/driver/*.ts through the code base and fails naming each circle that passes
 * through one of them.
 * The schema's tables may reference each other (foreign keys both ways) and are not checked here.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = process.cwd();
const IMPORT = /(?:\bfrom|\bimport)\s*\(?\s*["']([^"']+)["']/g;

function resolve(from: string, spec: string): string | null {
  const base = spec.startsWith("@/") ? spec.slice(2) : spec.startsWith(".") ? path.join(path.dirname(from), spec) : null;
  if (base === null) return null; // a package
  for (const candidate of [`${base}.ts`, `${base}.tsx`, `${base}/index.ts`, base]) {
    if (candidate.endsWith(".ts") || candidate.endsWith(".tsx")) {
      if (existsSync(path.join(ROOT, candidate))) return path.normalize(candidate);
    }
  }
  return null;
}

function importsOf(file: string): string[] {
  const text = readFileSync(path.join(ROOT, file), "utf8");
  return [...new Set([...text.matchAll(IMPORT)].map((m) => resolve(file, m[1]!)).filter((f): f is string => f !== null))];
}

/** Every circle through `start`, as the list of files around it. */
function circlesThrough(start: string, graph: Map<string, string[]>): string[][] {
  const found: string[][] = [];
  const seen = new Set<string>();
  const walk = (file: string, trail: string[]) => {
    for (const next of graph.get(file) ?? []) {
      if (next === start) found.push([...trail, start]);
      else if (!seen.has(next)) {
        seen.add(next);
        walk(next, [...trail, next]);
      }
    }
  };
  walk(start, [start]);
  return found;
}

describe("server/db's imports", () => {
  it("form no circle through client.ts, driver/ or migrate.ts", () => {
    const modules = ["server/db", "server/db/driver"].flatMap((dir) =>
      readdirSync(path.join(ROOT, dir))
        .filter((f) => f.endsWith(".ts") && !f.endsWith(".test.ts"))
        .map((f) => `${dir}/${f}`),
    );
    expect(modules).toEqual(expect.arrayContaining(["server/db/client.ts", "server/db/driver/index.ts", "server/db/migrate.ts"]));
    const graph = new Map<string, string[]>();
    const load = (file: string) => {
      if (graph.has(file)) return;
      const deps = importsOf(file);
      graph.set(file, deps);
      for (const d of deps) load(d);
    };
    for (const m of modules) load(m);
    const circles = modules.flatMap((m) => circlesThrough(m, graph)).map((c) => c.join(" → "));
    expect(circles).toEqual([]);
  });

  it("would see a circle (the check is not vacuous)", () => {
    const graph = new Map([
      ["server/db/client.ts", ["server/db/driver/index.ts"]],
      ["server/db/driver/index.ts", ["server/db/client.ts"]],
    ]);
    expect(circlesThrough("server/db/client.ts", graph)).toEqual([["server/db/client.ts", "server/db/driver/index.ts", "server/db/client.ts"]]);
  });
});
