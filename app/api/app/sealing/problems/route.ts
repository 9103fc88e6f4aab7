import { appRoute } from "@/server/auth/app-route";
import { listSealingProblems } from "@/server/domain/sealing/list-sealing-problems";
import { appListSealingProblemsOp } from "@/server/domain/sealing/operations";

// GET /api/app/sealing/problems – the overview's sealing alert
export const GET = appRoute(appListSealingProblemsOp, ({ db, actor }) => listSealingProblems(db, actor));
