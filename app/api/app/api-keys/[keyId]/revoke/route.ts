import { appRoute } from "@/server/auth/app-route";
import { appRevokeApiKey } from "@/server/domain/keys/operations";
import { revokeApiKey } from "@/server/domain/keys/revoke-api-key";

// POST /api/app/api-keys/{keyId}/revoke – revoke at once and for good (owner only)
export const POST = appRoute(appRevokeApiKey, ({ db, actor, params }) => revokeApiKey(db, actor, { id: params.keyId }));
