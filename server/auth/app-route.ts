/**
 * The wrappers of the app's route handlers (app/api/app/**): the same operation objects and wrapper as
 * /api/v1 (server/http/route.ts), through the session door (./session-door.ts).
 */
import type { TActor } from "@/server/domain/access/actor";
import type { TSessionIdentity } from "@/server/domain/access/load-session-actor";
import type { TOperation } from "@/server/domain/operation";
import { defineRoute, type THandler, type TRouteHandler } from "@/server/http/route";
import { getSessionIdentity } from "./session";
import type { TRateLimiter } from "@/server/http/steps/rate-limit";
import { publicDoor, rateLimitedPublicDoor, sessionDoor, type TSessionLookup } from "./session-door";

const KEY = Symbol.for("foliosign.sessionLookup");
const slot = globalThis as Record<symbol, TSessionLookup | undefined>;

/**
 * Route tests act as a given member without a browser or next-auth, the way tests set the clock
 * (server/lib/clock.ts). Unset, the real next-auth session is read.
 */
export function setSessionLookup(lookup: TSessionLookup | undefined): void {
  slot[KEY] = lookup;
}

function currentIdentity(req: Request): Promise<TSessionIdentity | null> {
  const override = slot[KEY];
  return override ? override(req) : getSessionIdentity();
}

function assertInternal(op: TOperation): void {
  if (!op.internal || !op.path.startsWith("/api/app/")) throw new Error(`${op.operationId}: app routes serve internal /api/app operations only`);
}

const door = sessionDoor(currentIdentity);

/** A route for signed-in members: no session → 401. */
export function appRoute<const O extends TOperation>(op: O, handler: THandler<O, TActor>): TRouteHandler {
  assertInternal(op);
  return defineRoute(door, op, handler);
}

/**
 * A route used before there is a session (first-run setup, accepting an invite, the signing page, /verify);
 * `rateLimit` gives it a limit of its own per client address (429 beyond, before the body is read).
 */
export function publicAppRoute<const O extends TOperation>(op: O, handler: THandler<O, null>, options: { rateLimit?: TRateLimiter } = {}): TRouteHandler {
  assertInternal(op);
  return defineRoute(options.rateLimit ? rateLimitedPublicDoor(options.rateLimit) : publicDoor, op, handler);
}
