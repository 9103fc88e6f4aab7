import { appRoute } from "@/server/auth/app-route";
import { getEmbedOrigins } from "@/server/domain/embedding/get-embed-origins";
import { appGetEmbedOriginsOp, appSetEmbedOriginsOp } from "@/server/domain/embedding/operations";
import { setEmbedOrigins } from "@/server/domain/embedding/set-embed-origins";

// GET /api/app/settings/embed-origins – the origins allowed to frame embedded signing pages
export const GET = appRoute(appGetEmbedOriginsOp, ({ db, actor }) => getEmbedOrigins(db, actor));
// PUT /api/app/settings/embed-origins – replace them
export const PUT = appRoute(appSetEmbedOriginsOp, ({ db, actor, body }) => setEmbedOrigins(db, actor, body));
