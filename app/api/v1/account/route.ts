import { apiRoute } from "@/server/http/api-route";
import { getAccount } from "@/server/domain/organisation/operations";

// GET /api/v1/account – who the key acts as
export const GET = apiRoute(getAccount, async ({ actor }) => ({
  organisation: { id: actor.organisation.id, name: actor.organisation.name },
  workspace: { id: actor.workspace.id, name: actor.workspace.name, slug: actor.workspace.slug, test: actor.workspace.isTest },
  role: {
    id: actor.role.id,
    name: actor.role.name,
    permissions: { apiAccess: actor.role.apiAccess, ...actor.role.permissions, templateAccess: actor.role.templateAccess },
  },
  issuedBy: actor.user,
  apiKey: actor.apiKey,
}));
