import { z } from "zod";
import type { Db } from "@/server/db/client";
import { sendReadinessTestMessage, type TTestMessageResult } from "@/server/domain/readiness/check-smtp";
import { formatReadinessText } from "@/server/domain/readiness/format-report";
import { readinessContext, readinessRedactor, runReadiness } from "@/server/domain/readiness/run-readiness";
import type { TReadinessContext } from "@/server/domain/readiness/types";

export type TDoctorOptions = { json: boolean; sendTestTo?: string };

/** Runs the checks (and the test message when asked), prints the report; returns the exit code: 1 when any check failed. */
export async function runDoctor(
  db: Db | null,
  dbError: string | undefined,
  options: TDoctorOptions,
  out: (line: string) => void,
  overrides: Partial<TReadinessContext> = {},
): Promise<number> {
  if (options.sendTestTo !== undefined && !z.email().safeParse(options.sendTestTo).success) {
    out(`--send-test-to: "${options.sendTestTo}" is not an email address.`);
    return 2;
  }
  const ctx = readinessContext(db, { dbError, ...overrides });
  const report = await runReadiness(ctx);
  let testMessage: TTestMessageResult | undefined;
  if (options.sendTestTo) {
    const sent = await sendReadinessTestMessage(ctx, options.sendTestTo);
    testMessage = { ...sent, message: readinessRedactor(ctx)(sent.message) };
  }
  if (options.json) {
    out(JSON.stringify(testMessage ? { ...report, testMessage } : report, null, 2));
  } else {
    out(formatReadinessText(report));
    if (testMessage) out(`Test message: ${testMessage.status.toUpperCase()}: ${testMessage.message}`);
  }
  return report.status === "fail" || testMessage?.status === "fail" ? 1 : 0;
}
