import { publicRoute } from "@/server/auth/app-route";
import { createOrganisationWithOwner, ZCreateOwner } from "@/server/domain/accounts/create-organisation";

// POST /api/app/setup – first run: the owner, the organisation and its default workspace (409 once set up)
export const POST = publicRoute({ body: ZCreateOwner, successStatus: 201 }, async ({ db, body }) => {
  const created = await createOrganisationWithOwner(db, body);
  return { organisationId: created.organisationId, userId: created.userId };
});
