import { createHash, timingSafeEqual } from "node:crypto";
import { getDb } from "@/server/db/client";
import { renderMetrics } from "@/server/domain/webhooks/health/render-metrics";
import { env } from "@/server/env";
import { now } from "@/server/lib/clock";

export const dynamic = "force-dynamic";

const digest = (s: string) => createHash("sha256").update(s).digest();

// GET /api/metrics – Prometheus text; only when METRICS_TOKEN is set, and only with that bearer token
export async function GET(req: Request): Promise<Response> {
  const token = env().METRICS_TOKEN;
  if (!token) return Response.json({ error: "Not found" }, { status: 404 });
  const given = /^Bearer\s+(\S+)$/i.exec(req.headers.get("authorization") ?? "")?.[1] ?? "";
  if (!timingSafeEqual(digest(given), digest(token))) {
    return Response.json({ error: "Unauthorized" }, { status: 401, headers: { "WWW-Authenticate": "Bearer" } });
  }
  const body = await renderMetrics(await getDb(), now());
  return new Response(body, { headers: { "content-type": "text/plain; version=0.0.4", "cache-control": "no-store" } });
}
