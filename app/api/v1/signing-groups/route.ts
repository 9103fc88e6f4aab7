import { listSigningGroups } from "@/server/domain/signing-groups/list-signing-groups";
import { listSigningGroups as listSigningGroupsOp } from "@/server/domain/signing-groups/operations";
import { apiRoute } from "@/server/http/api-route";

// GET /api/v1/signing-groups – every group of the workspace, by name, with members
export const GET = apiRoute(listSigningGroupsOp, ({ db, actor }) => listSigningGroups(db, actor));
