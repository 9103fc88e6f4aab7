import { resumePackage } from "@/server/domain/packages/resume-package";
import { apiRoute } from "@/server/http/api-route";
import { resumePackageOp } from "@/server/domain/packages/operations";

// POST /api/v1/packages/{packageId}/resume – resume from hold
export const POST = apiRoute(resumePackageOp, ({ db, actor, params }) => resumePackage(db, actor, params));
