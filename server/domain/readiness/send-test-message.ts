import type { Db } from "@/server/db/client";
import type { TActor } from "@/server/domain/access/actor";
import { assertOwner } from "@/server/domain/access/gates";
import { sendReadinessTestMessage } from "./check-smtp";
import { readinessContext, readinessRedactor } from "./run-readiness";

/**
 * The Readiness page's "Send a test message": straight through SMTP_URL (not the mail queue) to the signed-in
 * owner's own address, so the page can say at once what the server answered. Never sent unless asked.
 */
export async function sendTestMessage(db: Db, actor: TActor) {
  assertOwner(actor);
  const ctx = readinessContext(db);
  const result = await sendReadinessTestMessage(ctx, actor.user.email);
  return { ...result, message: readinessRedactor(ctx)(result.message) };
}
