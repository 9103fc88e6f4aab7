/**
 * The API-key door of /api/v1: rate limit → Bearer key → workspace header → the public-API plan feature →
 * IP allowlist; then the shared wrapper (./route.ts) checks the operation's gates, records the key's use,
 * honours an `Idempotency-Key` on every POST (scoped to the key; ./idempotency), validates and runs. Each step
 * is a small function in ./steps.
 */
import type { TKeyedActor } from "@/server/domain/access/actor";
import { assertFeature } from "@/server/domain/access/gates";
import type { TOperation } from "@/server/domain/operation";
import { env } from "@/server/env";
import { now } from "@/server/lib/clock";
import { defineRoute, type TDoor, type THandler, type TRouteHandler } from "./route";
import { authenticate } from "./steps/authenticate";
import { checkIpAllowlist, checkWorkspaceHeader } from "./steps/authorize";
import { clientAddressOf } from "./steps/client-address";
import { rateLimitHeaders, takeRateLimit } from "./steps/rate-limit";
import { recordKeyUse } from "./steps/record-key-use";

export { JsonText, WithStatus, type TRouteHandler } from "./route";

const lastUsed = new WeakMap<TKeyedActor, Date | null>();

const apiDoor: TDoor<TKeyedActor> = {
  name: "api",
  bodyLimitBytes: () => env().API_BODY_LIMIT_BYTES,
  async admit(req, { requestId, headers, op }, getDb) {
    const clientAddress = clientAddressOf(req);
    Object.assign(headers, rateLimitHeaders(takeRateLimit(clientAddress)));
    const { actor, keyLastUsedAt } = await authenticate(await getDb(), req, { requestId, clientAddress });
    lastUsed.set(actor, keyLastUsedAt);
    checkWorkspaceHeader(req, actor);
    // The spec's order: plan (402) before the IP allowlist (403); the wrapper's gates re-check the feature.
    assertFeature(actor, "publicApi");
    if (op.feature) assertFeature(actor, op.feature);
    checkIpAllowlist(actor);
    return actor;
  },
  async admitted(db, actor) {
    await recordKeyUse(db, { id: actor.apiKey.id, lastUsedAt: lastUsed.get(actor) ?? null }, now());
  },
  // Idempotency-Keys belong to the API key: two keys (or two integrations) never see each other's answers.
  idempotencyScope: (actor) => actor.apiKey.id,
  // The spec's scheme: `Authorization: Bearer fsk_…` (the document's bearerAuth).
  challenge: "Bearer",
  logPath: async (req) => new URL(req.url).pathname,
};

export function apiRoute<const O extends TOperation>(op: O, handler: THandler<O, TKeyedActor>): TRouteHandler {
  if (op.internal || !op.path.startsWith("/api/v1/")) throw new Error(`${op.operationId}: apiRoute serves public /api/v1 operations only`);
  return defineRoute(apiDoor, op, handler);
}
