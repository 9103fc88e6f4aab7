import path from "node:path";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: { alias: { "@": path.resolve(import.meta.dirname) } },
  test: {
    include: ["server/**/*.test.ts", "app/**/*.test.ts", "components/**/*.test.ts", "clients/**/*.test.ts", "common/**/*.test.ts"],
    globalSetup: ["server/test/global-setup.ts"],
    pool: "forks",
    // Two files at a time (vitest's default on two cores is one): most files wait on a database, a child process or
    // a socket for much of their time, so a second fork uses the idle core. VITEST_WORKERS overrides it.
    maxWorkers: Number(process.env.VITEST_WORKERS ?? 2),
    testTimeout: 30_000,
    hookTimeout: 60_000,
    env: {
      LOG_LEVEL: "silent",
      NODE_ENV: "test",
      ENCRYPTION_KEY: "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff",
      NEXTAUTH_SECRET: "test-secret-test-secret-test-secret-0000",
      WEBHOOK_ALLOW_PRIVATE_TARGETS: "false",
      PUBLIC_URL: "http://localhost:3000",
    },
  },
});
