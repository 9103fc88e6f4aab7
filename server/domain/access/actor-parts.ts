/** The parts of an actor read from rows, shared by both doors' loaders so they cannot disagree. */
import type { organisations, roles } from "@/server/db/schema";
import { PERMISSIONS, type TActor } from "./actor";

type TOrgRow = Pick<typeof organisations.$inferSelect, "id" | "name" | "featurePublicApi" | "featureWebhooks" | "featureCustomFields" | "ipAllowlist">;
type TRoleRow = Pick<typeof roles.$inferSelect, "id" | "name" | "apiAccess" | "templateAccess" | (typeof PERMISSIONS)[number]>;

export function organisationOf(org: TOrgRow): TActor["organisation"] {
  return {
    id: org.id,
    name: org.name,
    features: { publicApi: org.featurePublicApi, webhooks: org.featureWebhooks, customFields: org.featureCustomFields },
    ipAllowlist: org.ipAllowlist,
  };
}

/** The effective role; an owner (signed in) holds every permission and CREATE template access. */
export function roleOf(role: TRoleRow, isOwner: boolean): TActor["role"] {
  return {
    id: role.id,
    name: role.name,
    apiAccess: role.apiAccess,
    permissions: Object.fromEntries(PERMISSIONS.map((p) => [p, isOwner || role[p]])) as TActor["role"]["permissions"],
    templateAccess: isOwner ? "CREATE" : role.templateAccess,
  };
}
