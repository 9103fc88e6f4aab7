/**
 * The layer rule of docs/architecture.md is enforced by ESLint (eslint.config.mjs): a domain file that imports
 * the HTTP, jobs or auth layer, Next or React, a file of a floor below the domain (documents-io, pdf, storage,
 * lib, db, env) that imports a floor above its own, and a component that imports server code other than as a
 * type, fail `npm run lint`, whether the import is written with the `@/` alias or as a relative path. This runs the project's real ESLint configuration on small pieces of code placed at those
 * paths, so the rule cannot quietly stop matching (a renamed folder, a changed glob).
 */
import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";

const eslint = new ESLint({ cwd: process.cwd() });

async function restrictedImports(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? []).filter((m) => m.ruleId === "@typescript-eslint/no-restricted-imports").map((m) => m.message);
}

// Each case runs the real ESLint config (type-aware): slow on a loaded machine, hence the generous limit.
describe("layer rule", { timeout: 180_000 }, () => {
  it("refuses HTTP, jobs, auth, Next and React in the domain", async () => {
    const file = "server/domain/example/do-thing.ts";
    for (const spec of ["@/server/http/errors", "@/server/jobs/worker", "@/server/auth/session", "next/navigation", "react"]) {
      const messages = await restrictedImports(file, `import { x } from "${spec}";\nexport const y = x;\n`);
      expect(messages, spec).toHaveLength(1);
    }
  });

  it("refuses the same layers through a relative import (resolved by path)", async () => {
    const file = "server/domain/example/do-thing.ts";
    const cases: [string, string][] = [
      ["../../http/errors", "server/http"],
      ["../../jobs/worker", "server/jobs"],
      ["../../auth/session", "server/auth"],
    ];
    for (const [spec, layer] of cases) {
      const [result] = await eslint.lintText(`import { x } from "${spec}";\nexport const y = x;\n`, { filePath: file });
      const messages = (result?.messages ?? []).filter((m) => m.ruleId === "import/no-restricted-paths").map((m) => m.message);
      expect(messages, spec).toHaveLength(1);
      expect(messages[0], spec).toContain(`(${layer})`);
    }
    const [ok] = await eslint.lintText(`import { errors } from "../../lib/errors";\nexport const y = errors;\n`, { filePath: file });
    expect((ok?.messages ?? []).filter((m) => m.ruleId === "import/no-restricted-paths")).toEqual([]);
  });

  it("keeps the floors below the domain from importing a floor above their own (relative or by alias)", async () => {
    const pathFence = async (file: string, spec: string) => {
      const [result] = await eslint.lintText(`import { x } from "${spec}";\nexport const y = x;\n`, { filePath: file });
      return (result?.messages ?? []).filter((m) => m.ruleId === "import/no-restricted-paths");
    };
    const refused: [string, string][] = [
      ["server/documents-io/example.ts", "../domain/transaction"],
      ["server/documents-io/example.ts", "@/server/http/errors"],
      ["server/pdf/example.ts", "../documents-io/convert-docx"],
      ["server/storage/example.ts", "../jobs/worker"],
      ["server/lib/example.ts", "../pdf/seal-pdf"],
      ["server/lib/example.ts", "@/server/domain/transaction"],
      ["server/db/example.ts", "../lib/errors"],
      ["server/env.ts", "./db/client"],
    ];
    for (const [file, spec] of refused) expect(await pathFence(file, spec), `${file} → ${spec}`).toHaveLength(1);
    const allowed: [string, string][] = [
      ["server/documents-io/example.ts", "../pdf/seal-pdf"],
      ["server/pdf/example.ts", "../lib/errors"],
      ["server/lib/example.ts", "../db/client"],
      ["server/db/example.ts", "../env"],
    ];
    for (const [file, spec] of allowed) expect(await pathFence(file, spec), `${file} → ${spec}`).toEqual([]);
  });

  it("lets the domain use lib, db, env and other capabilities", async () => {
    const code = `import { errors } from "@/server/lib/errors";\nimport { getDb } from "@/server/db/client";\nimport { findTemplate } from "@/server/domain/templates/find-template";\nexport const y = [errors, getDb, findTemplate];\n`;
    expect(await restrictedImports("server/domain/example/do-thing.ts", code)).toEqual([]);
  });

  it("lets components import server types only", async () => {
    const file = "components/example/thing.tsx";
    expect(
      await restrictedImports(file, `import { listMembers } from "@/server/domain/organisation/list-members";\nexport const y = listMembers;\n`),
    ).toHaveLength(1);
    expect(await restrictedImports(file, `import type { TActor } from "@/server/domain/access/actor";\nexport type Y = TActor;\n`)).toEqual([]);
    expect(await restrictedImports(file, `import { isIpOrCidr } from "@/common/ip-entry";\nexport const y = isIpOrCidr;\n`)).toEqual([]);
  });
});
