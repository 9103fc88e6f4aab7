import { appRoute } from "@/server/auth/app-route";
import { createSigningGroup } from "@/server/domain/signing-groups/create-signing-group";
import { listSigningGroups } from "@/server/domain/signing-groups/list-signing-groups";
import { appCreateSigningGroup, appListSigningGroups } from "@/server/domain/signing-groups/operations";

// GET /api/app/signing-groups – every group of the current workspace, by name
export const GET = appRoute(appListSigningGroups, ({ db, actor }) => listSigningGroups(db, actor));

// POST /api/app/signing-groups – create a group
export const POST = appRoute(appCreateSigningGroup, ({ db, actor, body }) => createSigningGroup(db, actor, body));
