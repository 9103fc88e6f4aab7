import { sql } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { queryRows } from "@/server/db/client";
import { endWithCommit } from "@/server/db/driver";
import { errors } from "@/server/lib/errors";

/** PostgreSQL's `division_by_zero`: the credit statement sent with the COMMIT found no allowance left. */
const DIVISION_BY_ZERO = "22012";

/**
 * Charges one package to the organisation's allowance, or refuses with 402. One conditional UPDATE: the row
 * lock and PostgreSQL's re-check of the WHERE after waiting make concurrent sends line up, so the allowance
 * is never overspent; it runs in the send's transaction, so a send that fails later gives the credit back.
 *
 * Taken LAST (docs/decisions/package-credit-last.md). On PostgreSQL, in the send's own transaction
 * (`withEvents`' `transactionEndingWith`), it is not awaited here: it is sent with the COMMIT, in one write
 * (`endWithCommit`, server/db/driver/transactions.ts), so the organisation's row is locked for the commit only,
 * not for the trip back through this process (issue 26). There its answer comes after the COMMIT ran, so a spent allowance
 * must make the statement FAIL, not match nothing: `1 / count(*)` of the updated rows divides by zero, the
 * transaction is aborted, PostgreSQL answers the COMMIT with ROLLBACK (nothing of the send is written), and the
 * transaction throws the 402. Elsewhere (PGlite; a savepoint, e.g. the scheduler's send, whose caller must see
 * the refusal inside its transaction) the plain UPDATE runs here and a row count of 0 is the 402, as before.
 */
export async function consumePackageCredit(tx: Db, organisationId: string): Promise<void> {
  const charge = sql`update organisations set packages_used = packages_used + 1
        where id = ${organisationId} and (package_allowance is null or packages_used < package_allowance)
        returning id`;
  const withCommit = sql`with credit as (${charge}) select 1 / count(*) as charged from credit`;
  const refused = (error: unknown) => ((error as { code?: string }).code === DIVISION_BY_ZERO ? errors.paymentRequired({ kind: "credit" }) : error);
  if (endWithCommit(tx, withCommit, refused)) return;
  const rows = await queryRows<{ id: string }>(tx, charge);
  if (rows.length === 0) throw errors.paymentRequired({ kind: "credit" });
}
