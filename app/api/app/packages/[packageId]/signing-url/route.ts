import { createSigningUrl } from "@/server/domain/packages/create-signing-url";
import { appRoute } from "@/server/auth/app-route";
import { appCreateSigningUrlOp } from "@/server/domain/packages/operations";

// POST /api/app/packages/{packageId}/signing-url – a 60-minute signing link
export const POST = appRoute(appCreateSigningUrlOp, ({ db, actor, params, body }) => createSigningUrl(db, actor, { ...params, ...body }));
