import { sessionRoute } from "@/server/auth/app-route";
import { getPlan } from "@/server/domain/organisation/get-plan";

// GET /api/app/plan – plan features and package allowance (read-only; the operator sets them)
export const GET = sessionRoute({}, async ({ db, actor }) => getPlan(db, actor));
