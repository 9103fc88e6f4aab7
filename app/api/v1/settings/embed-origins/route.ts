import { apiRoute } from "@/server/http/api-route";
import { getEmbedOrigins } from "@/server/domain/embedding/get-embed-origins";
import { getEmbedOriginsOp, setEmbedOriginsOp } from "@/server/domain/embedding/operations";
import { setEmbedOrigins } from "@/server/domain/embedding/set-embed-origins";

// GET /api/v1/settings/embed-origins – the origins allowed to frame embedded signing pages
export const GET = apiRoute(getEmbedOriginsOp, ({ db, actor }) => getEmbedOrigins(db, actor));
// PUT /api/v1/settings/embed-origins – replace them
export const PUT = apiRoute(setEmbedOriginsOp, ({ db, actor, body }) => setEmbedOrigins(db, actor, body));
