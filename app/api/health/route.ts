import { sql } from "drizzle-orm";
import { getDb } from "@/server/db/client";
import { env } from "@/server/env";

export const dynamic = "force-dynamic";

// GET /api/health – liveness and database reachability, no key
export async function GET(): Promise<Response> {
  const started = performance.now();
  try {
    const db = await getDb();
    await db.execute(sql`select 1`);
    const latencyMs = Math.round(performance.now() - started);
    return Response.json(
      { status: "ok", database: { reachable: true, kind: env().DATABASE_URL ? "postgres" : "pglite", latencyMs } },
      { headers: { "cache-control": "no-store" } },
    );
  } catch {
    return Response.json({ status: "error", database: { reachable: false } }, { status: 503, headers: { "cache-control": "no-store" } });
  }
}
