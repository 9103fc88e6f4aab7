import { z } from "zod";
import { sessionRoute } from "@/server/auth/app-route";
import { revokeApiKey } from "@/server/domain/keys";

const ZParams = z.object({ keyId: z.string().min(1) });

// POST /api/app/api-keys/{keyId}/revoke – revoke at once and for good (owner only)
export const POST = sessionRoute({ params: ZParams }, async ({ db, actor, params }) => revokeApiKey(db, actor, { id: params.keyId }));
