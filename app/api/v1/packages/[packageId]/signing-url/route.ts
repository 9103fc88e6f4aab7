import { createSigningUrl } from "@/server/domain/packages/create-signing-url";
import { apiRoute } from "@/server/http/api-route";
import { createSigningUrlOp } from "@/server/domain/packages/operations";

// POST /api/v1/packages/{packageId}/signing-url – a 60-minute signing link
export const POST = apiRoute(createSigningUrlOp, ({ db, actor, params, body }) => createSigningUrl(db, actor, { ...params, ...body }));
