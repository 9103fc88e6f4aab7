import { appRoute } from "@/server/auth/app-route";
import { appRetrySealOp } from "@/server/domain/sealing/operations";
import { retrySeal } from "@/server/domain/sealing/retry-seal";

// POST /api/app/packages/{packageId}/seal/retry – retry sealing that stopped
export const POST = appRoute(appRetrySealOp, ({ db, actor, params }) => retrySeal(db, actor, params));
