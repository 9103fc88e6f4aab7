/**
 * The readiness check (issue 23, item 5): one verdict per part of the installation an operator must get right,
 * each with what to do about it. `npm run doctor` (server/cli/doctor.ts) and the Readiness page
 * (app/(admin)/settings/readiness) run the same checks (run-readiness.ts) and show the same report.
 */
import type { Db } from "@/server/db/client";
import type { TEnv } from "@/server/env";
import type { TResolver } from "@/server/domain/webhooks/delivery/resolver";
import type { TMailTransport } from "@/server/domain/mail/transport";
import type { TSigningIdentity } from "@/server/pdf/types";
import type { TFileStore } from "@/server/storage/file-store";

export type TReadinessStatus = "ok" | "warn" | "fail";

export const CHECK_NAMES = ["database", "public-url", "smtp", "sealing-identity", "time-stamping", "storage", "webhook-egress", "backups"] as const;
export type TCheckName = (typeof CHECK_NAMES)[number];

export type TReadinessCheck = {
  name: TCheckName;
  /** What is checked, as a page heading: "Database", "Public URL" … */
  title: string;
  status: TReadinessStatus;
  /** The plain verdict: one or two sentences. */
  verdict: string;
  /** What to do; null when there is nothing to do. */
  action: string | null;
  /** What was found (never a secret): label → value. */
  facts: { label: string; value: string }[];
};

export type TReadinessReport = {
  generatedAt: string;
  /** The worst status of any check. */
  status: TReadinessStatus;
  checks: TReadinessCheck[];
};

/**
 * What the checks look at. Everything that reaches outside the process is injectable, so no test ever resolves
 * or contacts a non-loopback address: the DNS lookup, the TSA's fetch, the mail transport, the file store.
 */
export type TReadinessContext = {
  env: TEnv;
  /** null when the database could not be opened; `dbError` then says why. */
  db: Db | null;
  dbError?: string;
  now: () => Date;
  resolver: TResolver;
  mailTransport: () => TMailTransport;
  fileStore: () => Promise<TFileStore>;
  signingIdentity: () => Promise<TSigningIdentity>;
  /** The TSA requests' fetch (default globalThis.fetch). */
  tsaFetch?: typeof fetch;
};

export function check(
  name: TCheckName,
  title: string,
  status: TReadinessStatus,
  verdict: string,
  action: string | null,
  facts: TReadinessCheck["facts"] = [],
): TReadinessCheck {
  return { name, title, status, verdict, action, facts };
}

/** An error's message in one line, fit for a report (credentials in any URL it names are replaced later). */
export function reason(err: unknown): string {
  const e = err as { message?: unknown; code?: unknown } | null;
  const message = typeof e?.message === "string" && e.message ? e.message : String(err);
  const withCode = typeof e?.code === "string" && !message.includes(e.code) ? `${e.code}: ${message}` : message;
  // A trailing full stop is dropped: the verdicts add their own.
  return withCode.replace(/\s+/g, " ").trim().slice(0, 500).replace(/\.$/, "");
}
