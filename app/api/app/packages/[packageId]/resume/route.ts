import { resumePackage } from "@/server/domain/packages/resume-package";
import { appRoute } from "@/server/auth/app-route";
import { appResumePackageOp } from "@/server/domain/packages/operations";

// POST /api/app/packages/{packageId}/resume – resume from hold
export const POST = appRoute(appResumePackageOp, ({ db, actor, params }) => resumePackage(db, actor, params));
