/** The settings every peer of `npm run bench:peers` shares, and what a peer job carries. */
/** Endpoints the deliveries are spread over (BENCH_ENDPOINTS, default 10): our per-endpoint cap applies to each. */
export const ENDPOINTS = Number(process.env.BENCH_ENDPOINTS ?? 10);
/** Attempts in flight per worker process. */
export const CONCURRENCY = 64;
/** Database connections per worker process. */
export const POOL = 10;
/**
 * BENCH_SLOW_MS=<ms>: the receiver answers one endpoint's requests (this path, every tenth delivery) only after
 * that long — a slow receiver beside nine quick ones. The round then also reports when the quick endpoints had
 * every delivery and how many requests the slow one had open at once.
 */
export const SLOW_MS = Number(process.env.BENCH_SLOW_MS ?? 0);
export const SLOW_PATH = "/thr/0";
/** The peers' queue (graphile-worker task, pg-boss queue). */
export const QUEUE = "deliver";
export const PEERS = ["ours", "graphile", "pgboss"] as const;
/**
 * "base": our worker as built from another checkout (BENCH_BASE=<dir>, e.g. `git archive <commit> | tar -x`
 * with node_modules linked), on its own schema (its checkout's `drizzle/` migrations) — an earlier build interleaved
 * with this one, round by round.
 */
export type TPeer = (typeof PEERS)[number] | "base";
export const isOurs = (p: TPeer) => p === "ours" || p === "base";
/** What a peer job carries: the delivery, its target and the same body and secret as ours. */
export type TPeerJob = { id: string; url: string; body: string; secret: string };
