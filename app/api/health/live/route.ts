export const dynamic = "force-dynamic";

// GET /api/health/live – liveness only: the process answers, nothing else is touched (no database, no key)
export function GET(): Response {
  return Response.json({ status: "ok" }, { headers: { "cache-control": "no-store" } });
}
