import { sessionRoute } from "@/server/auth/app-route";
import { createApiKey, listApiKeys, ZCreateApiKey } from "@/server/domain/keys";

// GET /api/app/api-keys – the organisation's keys (owner only)
export const GET = sessionRoute({}, async ({ db, actor }) => listApiKeys(db, actor));

// POST /api/app/api-keys – issue a key; the value is in this response only (owner only; 409 beyond 50)
export const POST = sessionRoute({ body: ZCreateApiKey, successStatus: 201 }, async ({ db, actor, body }) =>
  createApiKey(db, actor, body),
);
