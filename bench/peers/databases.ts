/**
 * The scratch databases of `npm run bench:peers`, one per peer (`foliosign_peers_<peer>_<pid>`, dropped at the
 * end): created (with auto_explain when BENCH_AUTO_EXPLAIN=1), set up once (our schema, organisation and
 * endpoints; the peers' schemas), pre-filled before each round with every delivery (ours through recordEvent,
 * graphile-worker addJobs, pg-boss insert), and asked how many deliveries are not yet durably complete.
 */
import postgres, { type Sql } from "postgres";
import { ENDPOINTS, isOurs, POOL, QUEUE, type TPeer, type TPeerJob } from "./config";
import { enableStatements, statementsLoaded } from "./statements";

export type TPeerDatabases = {
  admin: Sql;
  names: Record<TPeer, string>;
  /** One connection per peer's database, for the bench's own reads (named `peers-bench`). */
  monitors: Record<TPeer, Sql>;
  /** The server preloads pg_stat_statements (and the extension is created in every peer's database). */
  statements: boolean;
  dbUrl: (name: string) => string;
  /** Resets the peer's queue and fills it with every delivery of the round. */
  prefill: (peer: TPeer, round: number) => Promise<void>;
  /** How many deliveries are not durably complete (ours DELIVERED, graphile-worker deleted, pg-boss completed). */
  remaining: (peer: TPeer) => Promise<number>;
  close: () => Promise<void>;
};

export async function openPeerDatabases(opts: { peers: readonly TPeer[]; total: number; receiverUrl: string }): Promise<TPeerDatabases> {
  const { peers, total } = opts;
  const base = new URL(process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres");
  const dbUrl = (name: string) => Object.assign(new URL(base.toString()), { pathname: `/${name}` }).toString();
  const admin = postgres(dbUrl("postgres"), { max: 1, onnotice: () => {} });
  const names = Object.fromEntries(peers.map((p) => [p, `foliosign_peers_${p}_${process.pid}`])) as Record<TPeer, string>;
  const monitors = {} as Record<TPeer, Sql>;
  const close = async () => {
    for (const p of peers) {
      await monitors[p]?.end();
      await admin.unsafe(`drop database if exists "${names[p]}" with (force)`);
    }
    await admin.end();
  };

  try {
    for (const p of peers) {
      await admin.unsafe(`create database "${names[p]}"`);
      // BENCH_AUTO_EXPLAIN=1: every statement of every session on the scratch databases is logged to the
      // server log with its plan, timing and buffers (auto_explain; superuser only). Where the time goes.
      if (process.env.BENCH_AUTO_EXPLAIN === "1") {
        for (const [k, v] of Object.entries({
          session_preload_libraries: "auto_explain",
          "auto_explain.log_min_duration": "0",
          "auto_explain.log_analyze": "on",
          "auto_explain.log_buffers": "on",
          "auto_explain.log_timing": "off",
        }))
          await admin.unsafe(`alter database "${names[p]}" set ${k} = '${v}'`);
      }
      monitors[p] = postgres(dbUrl(names[p]), { max: 1, onnotice: () => {}, connection: { application_name: "peers-bench" } });
    }
    const statements = await statementsLoaded(admin);
    if (statements) for (const p of peers) await enableStatements(monitors[p]);

    // One-time setup: our schema, organisation and endpoints. The body every peer sends is the one our prefill
    // stores (same bytes, ~600 of them).
    const { openPostgres, setDbHandle } = await import("@/server/db/client");
    const { migrate } = await import("@/server/db/migrate");
    const { insertOrganisation } = await import("@/server/domain/organisation/create-organisation");
    const { createEndpoint } = await import("@/server/domain/webhooks/endpoints/create-endpoint");
    const { recordEvent } = await import("@/server/domain/webhooks/events/record-event");
    const { workspaceActor } = await import("@/server/test/actors");
    const { generateWebhookSecret } = await import("@/server/domain/webhooks/endpoints/generate-webhook-secret");
    const secret = generateWebhookSecret();
    const targets = Array.from({ length: ENDPOINTS }, (_, i) => `${opts.receiverUrl}/thr/${i}`);
    const orgs: Partial<Record<TPeer, ReturnType<typeof workspaceActor>>> = {};
    let body = "";
    const setupOurs = async (peer: TPeer) => {
      const handle = await openPostgres(dbUrl(names[peer]), { max: POOL });
      setDbHandle(handle);
      try {
        // The base build runs on its own schema: a change of schema is part of what an A/B measures.
        const baseDir = process.env.BENCH_BASE;
        await migrate(handle, peer === "base" && baseDir ? `${baseDir}/drizzle` : undefined);
        const org = await insertOrganisation(handle.db, { name: "peers", email: "peers@bench.test", passwordHash: null, organisationName: "peers" });
        const actor = workspaceActor(org.organisationId, org.workspaceId);
        for (const url of targets) await createEndpoint(handle.db, actor, { url, events: ["PACKAGE_SENT"] });
        orgs[peer] = actor;
      } finally {
        await handle.close();
      }
    };
    const eventData = (i: number) => ({
      packageId: `pkg_${String(i).padStart(20, "0")}`,
      packageTitle: "Bench package — quarterly supplier agreement",
      signerCount: 2,
      sessionsSent: 2,
      metadata: { ref: "bench", note: "x".repeat(180) },
    });
    for (const p of peers.filter(isOurs)) await setupOurs(p);

    const prefillOurs = async (peer: TPeer, round: number) => {
      const m = monitors[peer];
      await m`truncate webhook_flights, webhook_queue, webhook_attempts, webhook_deliveries, webhook_events`;
      const handle = await openPostgres(dbUrl(names[peer]), { max: POOL });
      setDbHandle(handle);
      try {
        const org = orgs[peer]!;
        for (let from = 0; from < total / ENDPOINTS; from += 100) {
          await Promise.all(
            Array.from({ length: Math.min(100, total / ENDPOINTS - from) }, (_, k) =>
              handle.db.transaction((tx) =>
                recordEvent(tx, {
                  organisationId: org.organisation.id,
                  workspaceId: org.workspace.id,
                  event: "PACKAGE_SENT",
                  data: eventData(round * 1e6 + from + k),
                }),
              ),
            ),
          );
        }
      } finally {
        await handle.close();
      }
      if (!body) body = (await m<{ body: string }[]>`select body from webhook_events limit 1`)[0]!.body;
    };
    const peerJob = (prefix: string, n: number): TPeerJob => ({ id: `${prefix}_${n}`, url: targets[n % ENDPOINTS]!, body, secret });

    const prefills: Record<TPeer, (round: number) => Promise<void>> = {
      ours: (round) => prefillOurs("ours", round),
      base: (round) => prefillOurs("base", round),
      async graphile() {
        const { makeWorkerUtils } = await import("graphile-worker");
        const utils = await makeWorkerUtils({ connectionString: dbUrl(names.graphile) });
        try {
          await utils.migrate();
          for (let from = 0; from < total; from += 1000) {
            await utils.addJobs(Array.from({ length: Math.min(1000, total - from) }, (_, k) => ({ identifier: QUEUE, payload: peerJob("gw", from + k) })));
          }
        } finally {
          await utils.release();
        }
      },
      async pgboss() {
        const { PgBoss } = await import("pg-boss");
        const boss = new PgBoss({ connectionString: dbUrl(names.pgboss), max: 2, supervise: false, schedule: false });
        boss.on("error", (err) => console.error("pg-boss:", err));
        await boss.start();
        try {
          if (!(await boss.getQueue(QUEUE))) await boss.createQueue(QUEUE);
          await boss.deleteAllJobs(QUEUE);
          for (let from = 0; from < total; from += 1000) {
            await boss.insert(
              QUEUE,
              Array.from({ length: Math.min(1000, total - from) }, (_, k) => ({ data: peerJob("pb", from + k) })),
            );
          }
        } finally {
          await boss.stop({ graceful: false });
        }
      },
    };
    const count = async (query: Promise<{ n: number }[]>) => (await query)[0]!.n;
    const remaining = (peer: TPeer): Promise<number> => {
      const m = monitors[peer];
      if (isOurs(peer)) return count(m`select count(*)::int as n from webhook_deliveries where status <> 'DELIVERED'`);
      if (peer === "graphile") return count(m`select count(*)::int as n from graphile_worker._private_jobs`);
      return count(m`select count(*)::int as n from pgboss.job where name = ${QUEUE} and state <> 'completed'`);
    };
    return { admin, names, monitors, statements, dbUrl, prefill: (peer, round) => prefills[peer](round), remaining, close };
  } catch (err) {
    await close();
    throw err;
  }
}
