import { eq } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { organisations } from "@/server/db/schema";
import { AppError } from "@/server/lib/errors";

/** The plan limit `max_recipients_per_package` (null: unlimited): 402 naming it when `count` would exceed it. */
export async function assertRecipientLimit(db: Db, organisationId: string, count: number): Promise<void> {
  const [org] = await db.select({ max: organisations.maxRecipientsPerPackage }).from(organisations).where(eq(organisations.id, organisationId));
  const max = org?.max ?? null;
  if (max !== null && count > max) {
    throw new AppError("PAYMENT_REQUIRED", `Your plan allows at most ${max} recipients per package (limit max_recipients_per_package)`);
  }
}
