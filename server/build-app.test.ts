/**
 * The first start explains itself (issue 25, point 5): a fresh clone's `npm start` builds for minutes, so it says
 * what it is doing and roughly how long it takes, reports progress while the build is silent, and runs the build
 * with Next.js telemetry off (unless the operator opted in). A build that is up to date is skipped silently. The
 * build command here is a small node script standing in for `next build` (it records the environment it got).
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { buildIfStale, withTelemetryOff } from "./build-app";

const FAKE_BUILD = `setTimeout(() => {
  require("node:fs").mkdirSync(".next", { recursive: true });
  require("node:fs").writeFileSync(".next/BUILD_ID", String(process.env.NEXT_TELEMETRY_DISABLED));
}, 150);`;

let dir = "";
const made: string[] = [];
afterEach(() => {
  for (const d of made.splice(0)) rmSync(d, { recursive: true, force: true });
  delete process.env.NEXT_TELEMETRY_DISABLED;
});

function project(): string {
  dir = mkdtempSync(path.join(os.tmpdir(), "foliosign-build-"));
  made.push(dir);
  mkdirSync(path.join(dir, "app"));
  writeFileSync(path.join(dir, "app", "page.tsx"), "export default function Page() { return null; }\n");
  return dir;
}

describe("the first start's build", () => {
  it("says it is the first start and roughly how long it takes, reports progress, and builds with telemetry off", async () => {
    const lines: string[] = [];
    const status = await buildIfStale({ dir: project(), args: ["-e", FAKE_BUILD], log: (l) => lines.push(l), progressEveryMs: 40 });
    expect(status).toBeNull();
    expect(lines[0]).toMatch(/^First start: building the app \(next build\)\. .*1–5 minutes/);
    expect(lines.some((l) => /^…still building \(\d+ s so far\)$/.test(l))).toBe(true);
    expect(lines.at(-1)).toMatch(/^Build finished in \d+ s\.$/);
    expect(readFileSync(path.join(dir, ".next", "BUILD_ID"), "utf8")).toBe("1");

    // Up to date: nothing to say, nothing run.
    const again: string[] = [];
    expect(await buildIfStale({ dir, args: ["-e", "process.exit(3)"], log: (l) => again.push(l) })).toBeNull();
    expect(again).toEqual([]);
  });

  it("keeps an operator's own choice, and reports a failed build's status", async () => {
    process.env.NEXT_TELEMETRY_DISABLED = "0";
    await buildIfStale({ dir: project(), args: ["-e", FAKE_BUILD], log: () => {} });
    expect(readFileSync(path.join(dir, ".next", "BUILD_ID"), "utf8")).toBe("0");
    expect(withTelemetryOff({} as NodeJS.ProcessEnv)).toEqual({ NEXT_TELEMETRY_DISABLED: "1" });

    const lines: string[] = [];
    expect(await buildIfStale({ dir: project(), args: ["-e", "process.exit(3)"], log: (l) => lines.push(l) })).toBe(3);
    expect(lines.at(-1)).toBe("next build failed");
  });
});
