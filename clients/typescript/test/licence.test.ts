/** The client's licence (issue 23, items 1 and 4): MIT, its own LICENSE, while the service stays AGPL-3.0-only. */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

describe("the typed client's licence", () => {
  it("is MIT in its LICENSE and package.json, and the README says so beside the service's AGPL", () => {
    expect(readFileSync("clients/typescript/LICENSE", "utf8").startsWith("MIT License\n\nCopyright (c) 2026 The Foliosign contributors\n")).toBe(true);
    const pkg = JSON.parse(readFileSync("clients/typescript/package.json", "utf8")) as { name: string; license: string; files: string[] };
    expect([pkg.name, pkg.license]).toEqual(["@foliosign/client", "MIT"]);
    expect(pkg.files).toContain("LICENSE");
    const readme = readFileSync("README.md", "utf8").replace(/\s+/g, " ");
    expect(readme).toContain('the typed client in `clients/typescript` (its own `LICENSE`, `"license": "MIT"` in its `package.json`)');
    expect(readme).toContain("GNU Affero General Public License, version 3 only (`AGPL-3.0-only`");
  });
});
