/** The licence (issue 23, item 1): the service is AGPL-3.0-only, and the published OpenAPI document says the same. */
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { GET } from "@/app/api-reference/openapi.json/route";

const root = path.resolve(import.meta.dirname, "../..");

describe("licence", () => {
  it("LICENSE holds the GNU AGPL version 3 and package.json declares AGPL-3.0-only", () => {
    const text = readFileSync(path.join(root, "LICENSE"), "utf8");
    expect(text.startsWith("GNU AFFERO GENERAL PUBLIC LICENSE\nVersion 3, 19 November 2007")).toBe(true);
    expect(text).toContain("END OF TERMS AND CONDITIONS");
    const pkg = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")) as { license?: string };
    expect(pkg.license).toBe("AGPL-3.0-only");
  });

  it("the OpenAPI document's info.license names AGPL-3.0-only", async () => {
    const doc = (await (await GET()).json()) as { info: { license?: { name: string; url?: string } } };
    expect(doc.info.license).toEqual({ name: "AGPL-3.0-only", url: "https://www.gnu.org/licenses/agpl-3.0.html" });
  });
});
