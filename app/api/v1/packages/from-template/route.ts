import { createPackageFromTemplate } from "@/server/domain/packages/create-package-from-template";
import { apiRoute, WithStatus } from "@/server/http/api-route";
import { createPackageFromTemplateOp } from "@/server/domain/packages/operations";

// POST /api/v1/packages/from-template – a package from a template (200 with the existing one on an externalId match)
export const POST = apiRoute(createPackageFromTemplateOp, async ({ db, actor, body }) => {
  const r = await createPackageFromTemplate(db, actor, body);
  return r.created ? r.package : new WithStatus(200, r.package);
});
