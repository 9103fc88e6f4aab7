import { createPackageFromTemplate } from "@/server/domain/packages/create-package-from-template";
import { appRoute } from "@/server/auth/app-route";
import { WithStatus } from "@/server/http/api-route";
import { appCreatePackageFromTemplateOp } from "@/server/domain/packages/operations";

// POST /api/app/packages/from-template – a package from a template (200 with the existing one on an externalId match)
export const POST = appRoute(appCreatePackageFromTemplateOp, async ({ db, actor, body }) => {
  const r = await createPackageFromTemplate(db, actor, body);
  return r.created ? r.package : new WithStatus(200, r.package);
});
