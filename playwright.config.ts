import { defineConfig } from "@playwright/test";

/**
 * Playwright runs against the BUILT app started by the real start script (`npm start` builds if needed,
 * migrates, serves), on its own port and its own PGlite data directory — PGlite allows one process per
 * directory, so it must never share `.data/` with a dev or production server. One server, shared state:
 * tests run serially.
 */
// E2E_PORT lets a second run (another engineer's) use its own server and data directory side by side.
const PORT = Number(process.env.E2E_PORT ?? 3100);
const DATA_DIR = `.data/e2e-${PORT}`;
const BASE_URL = `http://127.0.0.1:${PORT}`;

export default defineConfig({
  testDir: "e2e",
  outputDir: "test-results",
  fullyParallel: false,
  workers: 1,
  forbidOnly: Boolean(process.env.CI),
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: process.env.CI ? [["list"]] : [["list"], ["html", { open: "never" }]],
  use: {
    baseURL: BASE_URL,
    browserName: "chromium",
    trace: "retain-on-failure",
    launchOptions: {
      executablePath: "/usr/bin/chromium",
      args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-background-networking", "--disable-component-update", "--no-first-run"],
    },
  },
  projects: [
    { name: "api", testDir: "e2e/api" },
    // A zone with DST and an offset from UTC, so the key-expiry hint shows the browser's real IANA zone.
    { name: "ui", testDir: "e2e/ui", use: { viewport: { width: 1280, height: 800 }, timezoneId: "Europe/Paris", locale: "en-GB" } },
  ],
  webServer: {
    // WEBHOOK_ALLOW_PRIVATE_TARGETS lets webhooks reach the tests' local receiver on 127.0.0.1 (http). The
    // SSRF refusals are proven in vitest with the switch off.
    command: `rm -rf ${DATA_DIR} && DATA_DIR=${DATA_DIR} PORT=${PORT} PUBLIC_URL=${BASE_URL} LOG_LEVEL=warn WEBHOOK_ALLOW_PRIVATE_TARGETS=true WORKER_POLL_MS=200 npm start`,
    url: `${BASE_URL}/signin`,
    reuseExistingServer: false,
    // The first start builds the app (next build): 15-30 s alone on two cores, minutes on a busy machine.
    timeout: 900_000,
    stdout: "pipe",
    stderr: "pipe",
  },
});
