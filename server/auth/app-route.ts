import type { TSessionActor } from "@/server/domain/actor";
import { createAppRoutes, type TSessionLookup } from "./session-route";
import { getSessionActor } from "./session";

const KEY = Symbol.for("foliosign.sessionLookup");
const slot = globalThis as Record<symbol, TSessionLookup | undefined>;

/**
 * Route tests act as a given member without a browser or next-auth, the way tests set the clock
 * (server/lib/clock.ts). Unset, the real next-auth session is read.
 */
export function setSessionLookup(lookup: TSessionLookup | undefined): void {
  slot[KEY] = lookup;
}

function currentActor(req: Request): Promise<TSessionActor | null> {
  const override = slot[KEY];
  return override ? override(req) : getSessionActor();
}

/** The wrappers the app's route handlers use, bound to the signed-in session. */
export const { sessionRoute, publicRoute } = createAppRoutes(currentActor);
