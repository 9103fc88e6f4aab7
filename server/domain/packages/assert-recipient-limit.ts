import { eq } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { organisations } from "@/server/db/schema";
import { errors } from "@/server/lib/errors";

/** The plan limit `max_recipients_per_package` (null: unlimited): 402 naming it (errors.paymentRequired) when `count` would exceed it. */
export async function assertRecipientLimit(db: Db, organisationId: string, count: number): Promise<void> {
  const [org] = await db.select({ max: organisations.maxRecipientsPerPackage }).from(organisations).where(eq(organisations.id, organisationId));
  checkRecipientLimit(org?.max ?? null, count);
}

/** The same check on a limit the caller read with something else (null: unlimited). */
export function checkRecipientLimit(max: number | null, count: number): void {
  if (max !== null && count > max) throw errors.paymentRequired({ kind: "limit", limit: max, of: "recipients per package" });
}
