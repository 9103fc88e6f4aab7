import { appRoute } from "@/server/auth/app-route";
import { createApiKey } from "@/server/domain/keys/create-api-key";
import { listApiKeys } from "@/server/domain/keys/list-api-keys";
import { appCreateApiKey, appListApiKeys } from "@/server/domain/keys/operations";

// GET /api/app/api-keys – the organisation's keys (owner only)
export const GET = appRoute(appListApiKeys, ({ db, actor }) => listApiKeys(db, actor));

// POST /api/app/api-keys – issue a key; the value is in this response only (owner only; 409 beyond 50)
export const POST = appRoute(appCreateApiKey, ({ db, actor, body }) => createApiKey(db, actor, body));
