import { defineConfig, globalIgnores } from "eslint/config";
import nextVitals from "eslint-config-next/core-web-vitals";
import nextTs from "eslint-config-next/typescript";

/** The layers above the floors below the domain, and which floor may not import which (bottom-up order). */
function lowerFloorZones() {
  const above = [
    "./server/domain",
    "./server/http",
    "./server/auth",
    "./server/jobs",
    "./server/cli",
    "./server/http-server.ts",
    "./server/start.ts",
    "./app",
    "./components",
  ];
  const floors = [
    ["./server/env.ts", "./server/secrets.ts"],
    ["./server/db"],
    ["./server/lib"],
    ["./server/pdf", "./server/storage", "./server/boot.ts"],
    ["./server/documents-io"],
  ];
  return floors.map((target, i) => ({
    target,
    from: [...floors.slice(i + 1).flat(), ...above],
    message: `${target.join(", ")} sit on a lower floor than what this imports (docs/architecture.md: imports point downwards).`,
  }));
}

export default defineConfig([
  ...nextVitals,
  ...nextTs,
  {
    rules: {
      "@typescript-eslint/no-explicit-any": "error",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "@typescript-eslint/consistent-type-definitions": ["error", "type"],
    },
  },
  {
    // Layers (docs/architecture.md): the domain stays below the doors and the worker. It may use server/lib,
    // server/db, server/env and other capabilities, never HTTP, jobs, auth, Next or React.
    files: ["server/domain/**/*.ts"],
    ignores: ["**/*.test.ts"],
    rules: {
      "@typescript-eslint/no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              group: ["@/server/http", "@/server/http/*", "**/server/http/*"],
              message: "The domain must not import the HTTP layer (server/http): move what you need to server/lib.",
            },
            {
              group: ["@/server/jobs", "@/server/jobs/*", "**/server/jobs/*"],
              message: "The domain must not import the worker (server/jobs): declare a job with defineJob from server/lib/jobs.",
            },
            {
              group: ["@/server/auth", "@/server/auth/*", "**/server/auth/*"],
              message: "The domain must not import the session layer (server/auth): take a TActor.",
            },
            { group: ["next", "next/*", "next-auth", "next-auth/*", "react", "react-dom", "react/*"], message: "The domain must not import Next or React." },
          ],
        },
      ],
      // The same fences by resolved path, so a relative import (`../../http/errors`) is refused too.
      "import/no-restricted-paths": [
        "error",
        {
          zones: [
            {
              target: "./server/domain",
              from: "./server/http",
              message: "The domain must not import the HTTP layer (server/http): move what you need to server/lib.",
            },
            {
              target: "./server/domain",
              from: "./server/jobs",
              message: "The domain must not import the worker (server/jobs): declare a job with defineJob from server/lib/jobs.",
            },
            { target: "./server/domain", from: "./server/auth", message: "The domain must not import the session layer (server/auth): take a TActor." },
          ],
        },
      ],
    },
  },
  {
    // The browser bundle: components may name server types, never pull server code in.
    files: ["components/**/*.ts", "components/**/*.tsx"],
    rules: {
      "@typescript-eslint/no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              group: ["@/server", "@/server/*", "**/server/*"],
              allowTypeImports: true,
              message: "Components run in the browser: import server code as `import type` only; share browser-safe helpers from common/.",
            },
          ],
        },
      ],
    },
  },
  {
    // common/ runs in the browser and on the server: nothing from the server, no Node built-ins.
    files: ["common/**/*.ts"],
    rules: {
      "@typescript-eslint/no-restricted-imports": [
        "error",
        {
          patterns: [
            { group: ["@/server", "@/server/*", "**/server/*", "@/components/*"], message: "common/ is shared with the browser: no server or component code." },
            { group: ["node:*", "@asteasolutions/zod-to-openapi"], message: "common/ is shared with the browser: no Node built-ins, no zod-to-openapi." },
          ],
        },
      ],
    },
  },
  {
    // The floors below the domain (docs/architecture.md) import only floors below their own: documents-io → pdf,
    // storage, boot → lib → db → env, secrets. By resolved path, like the domain's fence (a relative import counts).
    files: [
      "server/lib/**/*.ts",
      "server/db/**/*.ts",
      "server/pdf/**/*.ts",
      "server/storage/**/*.ts",
      "server/documents-io/**/*.ts",
      "server/env.ts",
      "server/secrets.ts",
      "server/boot.ts",
    ],
    ignores: ["**/*.test.ts", "**/test-support/**"],
    rules: {
      "import/no-restricted-paths": ["error", { zones: lowerFloorZones() }],
    },
  },
  {
    // The TypeScript client (clients/typescript, MIT) is shipped to integrators: nothing from the service.
    files: ["clients/typescript/src/**/*.ts", "clients/typescript/examples/**/*.ts"],
    rules: {
      "@typescript-eslint/no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              group: ["@/*", "**/server/*", "**/app/*", "**/common/*"],
              message: "The client ships alone (MIT): it imports only its own files and its dependencies.",
            },
          ],
        },
      ],
    },
  },
  {
    // `useTestDb()` registers vitest hooks; it is not a React hook.
    files: ["**/*.test.ts", "server/test/**/*.ts"],
    rules: { "react-hooks/rules-of-hooks": "off" },
  },
  globalIgnores([
    ".next/**",
    "node_modules/**",
    ".data/**",
    "drizzle/**",
    "test-results/**",
    "playwright-report/**",
    "next-env.d.ts",
    "public/pdfjs/**",
    ".scratch/**",
  ]),
]);
