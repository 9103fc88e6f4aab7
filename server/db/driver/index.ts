/**
 * THE driver-level module (this folder, server/db/driver/): the only files that may touch drizzle's session
 * (`db._.session`), `sqlToQuery`, prepared statements or the drivers' `unsafe` (server/test/driver-fence.test.ts
 * fails on any other file, and on any file outside this folder that imports a module of it instead of this index).
 * Everything else is plain drizzle, or calls one of the fast paths below; each is kept
 * because a figure recorded in bench/README.md shows it is needed, cited where it is defined:
 * - `hotQuery`: the packages list, its count and the API-key lookup (bench:packages, round 3);
 * - `queryPrepared`: the webhook worker's statements and the outbox write (bench:webhooks);
 * - `transactionInOneTrip`: the worker's claim transaction (bench:webhooks, round 3), also sent with a wave's
 *   outcomes (bench:peers, issue 22);
 * - `copyRowsIn`: the database file store's chunk writes, as binary COPY (bench:uploads, issue 26);
 * - `copyRowsOut`: the database file store's chunk reads, as binary COPY (bench:uploads, issue 26);
 * - `transactionEndingWith` / `endWithCommit`: the package credit sent with its COMMIT (bench:api, issue 26);
 * - `builtWrite`: the send's package and session updates, built once and prepared (bench:api, issue 26);
 * - `preparingClient`: every drizzle statement with parameters prepared per connection (bench:api, issue 26).
 * And the generic-plan pool those plan-stable reads run on (`installGenericPlanClient`; opened by
 * server/db/client.ts), kept for the measured packages-list targets (bench:packages, round 3, item 2).
 *
 * Where they are defined: rows.ts (raw rows, timestamps selected as text or numbers, the rows `hotQuery`
 * returns), prepared.ts (`hotQuery`, `preparingClient`, the generic-plan pool, `builtWrite`), transactions.ts
 * (`queryPrepared`, `transactionInOneTrip`, `transactionEndingWith` / `endWithCommit`) and copy.ts (`copyRowsIn`,
 * `copyRowsOut`). The rest of the code imports this index (`@/server/db/driver`), never one of those files.
 */
export { epochMs, hotColumns, isoText, queryRows, type Db, type Schema, type THotRow } from "./rows";
export { builtWrite, hotQuery, installGenericPlanClient, preparingClient, valueSlot, type TDriverClient } from "./prepared";
export { endWithCommit, queryPrepared, transactionEndingWith, transactionInOneTrip } from "./transactions";
export { copyRowsIn, copyRowsOut } from "./copy";
