import { apiRoute } from "@/server/http/api-route";
import { getAccount } from "@/server/http/operations/account";

// GET /api/v1/account – who the key acts as
export const GET = apiRoute(getAccount, async ({ ctx }) => ({
  organisation: { id: ctx.organisation.id, name: ctx.organisation.name },
  workspace: { id: ctx.workspace.id, name: ctx.workspace.name, slug: ctx.workspace.slug },
  role: {
    id: ctx.role.id,
    name: ctx.role.name,
    permissions: { apiAccess: ctx.role.apiAccess, ...ctx.role.permissions, templateAccess: ctx.role.templateAccess },
  },
  issuedBy: { id: ctx.actor.userId, email: ctx.actor.email, name: ctx.actor.name },
  apiKey: ctx.apiKey,
}));
