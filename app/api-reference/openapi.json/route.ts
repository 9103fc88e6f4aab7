import { buildOpenApiDocument } from "@/server/http/openapi";

export const dynamic = "force-dynamic";

// GET /api-reference/openapi.json – the OpenAPI 3.0.3 document, no key needed
export async function GET(): Promise<Response> {
  return Response.json(buildOpenApiDocument(), { headers: { "cache-control": "no-store" } });
}
