import { appRoute } from "@/server/auth/app-route";
import { appIssuePasswordLink } from "@/server/domain/organisation/operations";
import { issuePasswordLink } from "@/server/domain/organisation/passwords";

// POST /api/app/members/{userId}/password-link – a one-time link that sets the member's password (owner only)
export const POST = appRoute(appIssuePasswordLink, ({ db, actor, params }) => issuePasswordLink(db, actor, params.userId));
