/**
 * The database handle. `DATABASE_URL` set → PostgreSQL through postgres.js; unset → PGlite in PGLITE_DIR.
 *
 * The handle lives on `globalThis`: the start script (run by tsx) and Next's bundled route handlers load
 * separate copies of this module, and they must share ONE PGlite instance — two on one directory corrupt it.
 */
import { EventEmitter } from "node:events";
import { mkdirSync } from "node:fs";
import { cp } from "node:fs/promises";
import { env } from "@/server/env";
import { installGenericPlanClient, preparingClient, type Db, type TDriverClient } from "./driver";
import * as schema from "./schema";

// The handle's types and the raw-rows helper live in ./driver (so that it imports nothing of this module:
// no import circle in server/db); re-exported here, where the rest of the code imports them from.
export { queryRows, type Db } from "./driver";

/** The channel that wakes workers when work is due (events recorded, packages scheduled…). */
export const WAKE_CHANNEL = "foliosign_wake";

export type DbHandle = {
  kind: "pglite" | "postgres";
  db: Db;
  /** Wake workers: pg_notify on PostgreSQL (every process), an in-process event on PGlite. */
  notify(channel: string): Promise<void>;
  /** Listen for wake-ups; returns an unsubscribe function. */
  listen(channel: string, onWake: () => void): Promise<() => Promise<void>>;
  close(): Promise<void>;
  /**
   * PostgreSQL only: runs `fn` holding a cluster-wide advisory lock on its own connection, so replicas that
   * start together migrate one after the other instead of racing on the same DDL.
   */
  withMigrationLock?: <T>(fn: () => Promise<T>) => Promise<T>;
  /** PGlite only: a tarball of the data directory (tests restore it instead of migrating again). */
  dumpDataDir?: () => Promise<Blob>;
  /**
   * PGlite on a directory only: copies the data directory to `to` (which must not exist) while the database
   * runs — a checkpoint first, so little is left to replay; then the copy, with every query and transaction
   * of this process held off until it is done (PGlite's `runExclusive`), so no file changes while it is read.
   * The copy opens as the database stood at that moment (what was committed; the rest is rolled back).
   */
  copyDataDir?: (to: string) => Promise<void>;
};

const KEY = Symbol.for("foliosign.db");
type Holder = { handle?: DbHandle; opening?: Promise<DbHandle> };
const holder = ((globalThis as Record<symbol, unknown>)[KEY] ??= {}) as Holder;

/** Arbitrary constant naming Foliosign's migration lock among the cluster's advisory locks. */
const MIGRATION_LOCK_ID = 7_302_114_001;

export async function openPglite(options: { dataDir?: string; loadDataDir?: Blob } = {}): Promise<DbHandle> {
  const { PGlite } = await import("@electric-sql/pglite");
  // pg_trgm: the trigram index of the packages list's `search` (migration 0009_pg_trgm creates the extension).
  const { pg_trgm } = await import("@electric-sql/pglite/contrib/pg_trgm");
  const { drizzle } = await import("drizzle-orm/pglite");
  if (options.dataDir) mkdirSync(options.dataDir, { recursive: true });
  const extensions = { pg_trgm };
  const client = await PGlite.create(options.dataDir, options.loadDataDir ? { loadDataDir: options.loadDataDir, extensions } : { extensions });
  const db = drizzle(client, { schema }) as unknown as Db;
  const bus = new EventEmitter();
  bus.setMaxListeners(0);
  return {
    kind: "pglite",
    db,
    async notify(channel) {
      bus.emit(channel);
    },
    async listen(channel, onWake) {
      bus.on(channel, onWake);
      return async () => {
        bus.off(channel, onWake);
      };
    },
    async close() {
      if (!client.closed) await client.close();
    },
    dumpDataDir: () => client.dumpDataDir("none"),
    ...(options.dataDir
      ? {
          async copyDataDir(to: string) {
            const from = options.dataDir!;
            await client.exec("checkpoint");
            await client.runExclusive(() => cp(from, to, { recursive: true, errorOnExist: true, force: false }));
          },
        }
      : {}),
  };
}

/**
 * The generic-plan pool's settings. A generic plan is costed without the values: PostgreSQL assumes a LIMIT
 * takes a tenth of the rows and a workspace holds an average share of them, so at a million packages it would
 * scan and sort the table (or hash-join the page with it) instead of walking the index backward — and JIT-
 * compile that plan on every execution (~0.6 s). Every statement declared plan-stable has an index path
 * (server/db/driver/prepared.ts; list-packages.test checks their plans), so scans, sorts and hash or merge joins are
 * priced out on this pool and JIT is off. The main pool keeps PostgreSQL's defaults.
 */
export const GENERIC_PLAN_SETTINGS = {
  plan_cache_mode: "force_generic_plan",
  jit: "off",
  enable_seqscan: "off",
  enable_sort: "off",
  enable_hashjoin: "off",
  enable_mergejoin: "off",
} as const;

export async function openPostgres(url: string, options: { max?: number } = {}): Promise<DbHandle> {
  const { default: postgres } = await import("postgres");
  const { drizzle } = await import("drizzle-orm/postgres-js");
  // Prepared queries (server/db/driver/prepared.ts) are named statements; PostgreSQL would switch a named statement
  // to a generic plan after five runs, and a generic plan for `LIMIT $n` or `title ILIKE $p` can be far worse
  // than the plan for the actual values (a sort of the whole workspace instead of an index walk). Custom plans
  // only, as every unnamed statement gets anyway: preparing saves the parse and drizzle's SQL building.
  // No JIT on any connection: this is short OLTP work, and a plan whose estimated cost passes `jit_above_cost` is
  // compiled on every execution — the webhook claim on a queue of ~10,000 rows spent ~150 ms compiling per claim
  // (about all of its time), so a backlog drained at 290–413 deliveries/s instead of ~1,900 (bench/README.md,
  // issue 22, "JIT compiled every claim"; server/db/client-settings.test.ts). The generic-plan pool below too.
  const max = options.max ?? 10;
  const client = postgres(url, { max, onnotice: () => {}, connection: { plan_cache_mode: "force_custom_plan", jit: "off" } });
  // Every drizzle statement with parameters prepared per connection (server/db/driver/prepared.ts, `preparingClient`).
  const db = drizzle(preparingClient(client), { schema }) as unknown as Db;
  // The exception: statements whose best plan cannot depend on their values (the API-key lookup by its hash,
  // the counters, a workspace's newest page) run on a second, smaller pool that keeps ONE generic plan per
  // statement and connection; planning them afresh cost PostgreSQL more than running them (0.45–0.75 ms of
  // planning against 0.02–0.3 ms of execution). postgres.js opens its connections on first use.
  // Kept for a measured target: the packages list's requests/s ≥ 0.5 × the bare handler was met (0.53) only
  // with this pool (bench/README.md, `bench:packages` round 3, item 2; PostgreSQL had spent ~1.0 ms of CPU per
  // list request, almost all of it planning). It serves only server/db/driver/prepared.ts's `hotQuery(…, { plan:
  // "generic" })`; nothing else reaches it. Two connections (it was half the main pool's): these statements are
  // short index lookups, and postgres.js pipelines the ones queued on a connection and sends those queued in the
  // same turn in ONE socket write — on this loopback VM a write is the list's largest cost, so fewer, fuller
  // connections cost less CPU per request (bench/README.md, `bench:packages`, "Issue 19: quiet runs at 1 M,
  // then two connections for the plan-stable reads": list 0.50–0.53 → 0.54–0.69 × bare at 1 M, status 0.47–0.52 → 0.59–0.62).
  const generic = postgres(url, { max: Math.min(2, max), onnotice: () => {}, connection: GENERIC_PLAN_SETTINGS });
  installGenericPlanClient(db, generic as unknown as TDriverClient);
  return {
    kind: "postgres",
    db,
    async notify(channel) {
      await client.notify(channel, "");
    },
    async listen(channel, onWake) {
      const sub = await client.listen(channel, () => onWake());
      return async () => {
        await sub.unlisten();
      };
    },
    async withMigrationLock(fn) {
      const lock = postgres(url, { max: 1, onnotice: () => {} });
      try {
        await lock`select pg_advisory_lock(${MIGRATION_LOCK_ID})`;
        return await fn();
      } finally {
        await lock.end({ timeout: 5 });
      }
    },
    async close() {
      await Promise.all([client.end({ timeout: 5 }), generic.end({ timeout: 5 })]);
    },
  };
}

/** Opens the configured database once per process (and migrates it when `migrate` is true). */
export async function getDbHandle(): Promise<DbHandle> {
  if (holder.handle) return holder.handle;
  holder.opening ??= (async () => {
    const e = env();
    const handle = e.DATABASE_URL ? await openPostgres(e.DATABASE_URL) : await openPglite({ dataDir: e.pgliteDir });
    const { migrate } = await import("./migrate");
    await migrate(handle);
    holder.handle = handle;
    return handle;
  })();
  try {
    return await holder.opening;
  } finally {
    holder.opening = undefined;
  }
}

export async function getDb(): Promise<Db> {
  return (await getDbHandle()).db;
}

/** Installs an already opened handle as this process's database (start script, tests). */
export function setDbHandle(handle: DbHandle | undefined): void {
  holder.handle = handle;
}

export async function closeDb(): Promise<void> {
  const h = holder.handle;
  holder.handle = undefined;
  if (h) await h.close();
}
