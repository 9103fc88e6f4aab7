import { spawn, type ChildProcess } from "node:child_process";
import { rmSync } from "node:fs";
import { expect } from "@playwright/test";

export type TSecondApp = { baseURL: string; stop(): Promise<void> };

/**
 * A second app server for a spec that needs a configuration the shared webServer must not have (real SMTP, a
 * time-stamping authority): the same build Playwright's webServer made (SKIP_BUILD), its own port and PGlite
 * directory (`.data/e2e-<port>-<name>`), and `env` on top of the usual test settings. Resolves once /signin
 * answers 200.
 */
export async function startSecondApp(port: number, name: string, env: Record<string, string>): Promise<TSecondApp> {
  const baseURL = `http://127.0.0.1:${port}`;
  const dataDir = `.data/e2e-${port}-${name}`;
  rmSync(dataDir, { recursive: true, force: true });
  const child: ChildProcess = spawn(process.execPath, ["node_modules/tsx/dist/cli.mjs", "server/start.ts"], {
    env: { ...process.env, SKIP_BUILD: "1", DATA_DIR: dataDir, PORT: String(port), PUBLIC_URL: baseURL, LOG_LEVEL: "warn", WORKER_POLL_MS: "200", ...env },
    stdio: ["ignore", "inherit", "inherit"],
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  await expect
    .poll(
      async () => {
        if (child.exitCode !== null) throw new Error(`the app with ${name} exited (${child.exitCode})`);
        return fetch(`${baseURL}/signin`).then(
          (r) => r.status,
          () => 0,
        );
      },
      { timeout: 120_000, intervals: [500] },
    )
    .toBe(200);
  return {
    baseURL,
    async stop() {
      child.kill("SIGTERM");
      await exited;
    },
  };
}
