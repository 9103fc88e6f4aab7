import { startSecondApp, type TSecondApp } from "./second-app";

export type TAppWithTsa = TSecondApp;

/**
 * A second app server for the time-stamping specs (issue 20) with TSA_URLS pointing at a loopback RFC 3161 TSA
 * (server/pdf/test-support/loopback-pki.ts), so its seals reach B-LTA. The shared webServer keeps no TSA.
 */
export function startAppWithTsa(port: number, tsaUrl: string): Promise<TAppWithTsa> {
  return startSecondApp(port, "tsa", { TSA_URLS: tsaUrl, TSA_TIMEOUT_MS: "3000" });
}
