import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  // PGlite ships WASM and must not be bundled; postgres.js and pino work best unbundled too; esbuild is a native
  // binary (it bundles the upload inspector's child process, server/documents-io/inspect-in-child.ts).
  serverExternalPackages: ["@electric-sql/pglite", "postgres", "pino", "esbuild"],
  poweredByHeader: false,
  typedRoutes: false,
  // forbidden() from next/navigation: owner-only pages answer a real HTTP 403 with app/forbidden.tsx.
  experimental: { authInterrupts: true },
  // `npm test` type-checks the whole project first (tsc --noEmit, the same tsconfig), so the build does not
  // repeat it: on two busy cores Next's own check took longer than the rest of the build.
  typescript: { ignoreBuildErrors: true },
};

export default nextConfig;
