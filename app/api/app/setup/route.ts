import { publicAppRoute } from "@/server/auth/app-route";
import { createOrganisationWithOwner } from "@/server/domain/organisation/create-organisation";
import { appSetup } from "@/server/domain/organisation/operations";

// POST /api/app/setup – first run: the owner, the organisation and its default workspace (409 once set up)
export const POST = publicAppRoute(appSetup, ({ db, body }) => createOrganisationWithOwner(db, body));
