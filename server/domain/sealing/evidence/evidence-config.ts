import { env } from "@/server/env";
import { now } from "@/server/lib/clock";
import type { TEvidenceConfig } from "@/server/pdf/evidence";

/**
 * The time-stamping configuration the engine is given (TSA_URLS, TSA_TIMEOUT_MS), with our injectable clock;
 * null when no TSA is configured: seals then stay B-B and no upgrade is ever pending.
 */
export function evidenceConfig(): TEvidenceConfig | null {
  const { TSA_URLS, TSA_TIMEOUT_MS } = env();
  if (TSA_URLS.length === 0) return null;
  return { tsaUrls: TSA_URLS, tsaTimeoutMs: TSA_TIMEOUT_MS, now };
}
