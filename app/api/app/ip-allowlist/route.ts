import { appRoute } from "@/server/auth/app-route";
import { getIpAllowlist } from "@/server/domain/organisation/get-ip-allowlist";
import { appGetIpAllowlist, appSetIpAllowlist } from "@/server/domain/organisation/operations";
import { setIpAllowlist } from "@/server/domain/organisation/set-ip-allowlist";

// GET /api/app/ip-allowlist – the API's IP allowlist (owner only)
export const GET = appRoute(appGetIpAllowlist, ({ db, actor }) => getIpAllowlist(db, actor));

// PUT /api/app/ip-allowlist – replace it; an empty list lifts the restriction (owner only)
export const PUT = appRoute(appSetIpAllowlist, ({ db, actor, body }) => setIpAllowlist(db, actor, body));
