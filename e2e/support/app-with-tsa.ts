import { spawn, type ChildProcess } from "node:child_process";
import { rmSync } from "node:fs";
import { expect } from "@playwright/test";

export type TAppWithTsa = { baseURL: string; stop(): Promise<void> };

/**
 * A second app server for the time-stamping specs (issue 20): the same build Playwright's webServer made
 * (SKIP_BUILD), its own port and PGlite directory, and TSA_URLS pointing at a loopback RFC 3161 TSA
 * (server/pdf/test-support/loopback-pki.ts), so its seals reach B-LTA. The shared webServer keeps no TSA.
 */
export async function startAppWithTsa(port: number, tsaUrl: string): Promise<TAppWithTsa> {
  const baseURL = `http://127.0.0.1:${port}`;
  const dataDir = `.data/e2e-${port}-tsa`;
  rmSync(dataDir, { recursive: true, force: true });
  const child: ChildProcess = spawn(process.execPath, ["node_modules/tsx/dist/cli.mjs", "server/start.ts"], {
    env: {
      ...process.env,
      SKIP_BUILD: "1",
      DATA_DIR: dataDir,
      PORT: String(port),
      PUBLIC_URL: baseURL,
      TSA_URLS: tsaUrl,
      TSA_TIMEOUT_MS: "3000",
      LOG_LEVEL: "warn",
      WORKER_POLL_MS: "200",
    },
    stdio: ["ignore", "inherit", "inherit"],
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  await expect
    .poll(
      async () => {
        if (child.exitCode !== null) throw new Error(`the app with a TSA exited (${child.exitCode})`);
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
