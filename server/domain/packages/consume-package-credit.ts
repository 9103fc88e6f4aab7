import { sql } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { queryRows } from "@/server/db/client";
import { errors } from "@/server/lib/errors";

/**
 * Charges one package to the organisation's allowance, or refuses with 402. One conditional UPDATE: the row
 * lock and PostgreSQL's re-check of the WHERE after waiting make concurrent sends line up, so the allowance
 * is never overspent; it runs in the send's transaction, so a send that fails later gives the credit back.
 */
export async function consumePackageCredit(tx: Db, organisationId: string): Promise<void> {
  const rows = await queryRows<{ id: string }>(
    tx,
    sql`update organisations set packages_used = packages_used + 1
        where id = ${organisationId} and (package_allowance is null or packages_used < package_allowance)
        returning id`,
  );
  if (rows.length === 0) throw errors.paymentRequired({ kind: "credit" });
}
