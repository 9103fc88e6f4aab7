import { appRoute } from "@/server/auth/app-route";
import { getPlan } from "@/server/domain/organisation/get-plan";
import { appGetPlan } from "@/server/domain/organisation/operations";

// GET /api/app/plan – plan features and package allowance (read-only; the operator sets them)
export const GET = appRoute(appGetPlan, ({ db, actor }) => getPlan(db, actor));
