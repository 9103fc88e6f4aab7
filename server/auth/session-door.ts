/**
 * The session door of the app's own JSON API (app/api/app/**), the browser pages' backend:
 *   refuse API keys (403) → refuse writes from any other origin (403) and bodies of another type than the
 *   operation reads (415; ./same-origin-write.ts) → session (401) → the member's actor in the current
 *   workspace (the switcher's cookie, checked) → then the shared wrapper (server/http/route.ts).
 * The session lookup is injected, so the door is tested without next-auth or a browser.
 */
import type { TActor } from "@/server/domain/access/actor";
import { loadSessionActor, type TSessionIdentity } from "@/server/domain/access/load-session-actor";
import type { TOperation } from "@/server/domain/operation";
import { errors } from "@/server/lib/errors";
import type { TDoor, TRouteContext } from "@/server/http/route";
import { clientAddressOf } from "@/server/http/steps/client-address";
import { rateLimitHeaders, takeRateLimit, type TRateLimiter } from "@/server/http/steps/rate-limit";
import { refuseForeignWrite, refuseWrongContentType } from "./same-origin-write";
import { workspaceCookieFrom } from "./workspace-cookie";

const BODY_LIMIT_BYTES = 64 * 1024;

export type TSessionLookup = (req: Request) => Promise<TSessionIdentity | null>;

export function refuseApiKey(req: Request): void {
  if (/^Bearer\s+fsk_/i.test(req.headers.get("authorization") ?? "")) throw errors.sessionOnly();
}

/**
 * SameSite cookies stop cross-site writes, not those of a sibling origin (another port, another subdomain):
 * a write must come from the app's own origin, with the body type its operation reads (./same-origin-write.ts).
 * Both doors, before any session lookup or body read.
 */
export function refuseForeignRequest(req: Request, op: TOperation): void {
  refuseForeignWrite(req);
  refuseWrongContentType(req, op);
}

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/**
 * The request's path for the log with each route param replaced by its name
 * (`/api/app/invites/[token]/accept`): a param may be a credential — an invite token is one — and secrets
 * never reach the log. Params that cannot be read hide the whole path.
 */
export async function loggablePath(req: Request, params: TRouteContext["params"]): Promise<string> {
  let byValue: Map<string, string>;
  try {
    byValue = new Map(Object.entries(await params).flatMap(([name, value]) => (Array.isArray(value) ? value : [value]).map((v) => [v, name] as const)));
  } catch {
    return "[unavailable]";
  }
  return new URL(req.url).pathname
    .split("/")
    .map((segment) => {
      const name = segment ? byValue.get(decodeSegment(segment)) : undefined;
      return name ? `[${name}]` : segment;
    })
    .join("/");
}

/** Members signed in: no session (or one that may no longer act) → 401. */
export function sessionDoor(lookup: TSessionLookup): TDoor<TActor> {
  return {
    name: "app",
    bodyLimitBytes: () => BODY_LIMIT_BYTES,
    async admit(req, { requestId, op }, getDb) {
      refuseApiKey(req);
      refuseForeignRequest(req, op);
      const identity = await lookup(req);
      if (!identity) throw errors.unauthorized();
      const actor = await loadSessionActor(await getDb(), identity, {
        workspaceId: workspaceCookieFrom(req),
        requestId,
        clientAddress: clientAddressOf(req),
      });
      if (!actor) throw errors.unauthorized();
      return actor;
    },
    logPath: (req, context) => loggablePath(req, context.params),
  };
}

/** Before there is a session (first-run setup, accepting an invite): nobody acts. */
export const publicDoor: TDoor<null> = {
  name: "app",
  bodyLimitBytes: () => BODY_LIMIT_BYTES,
  async admit(req, { op }) {
    refuseApiKey(req);
    refuseForeignRequest(req, op);
    return null;
  },
  logPath: (req, context) => loggablePath(req, context.params),
};

/**
 * The public door with a rate limit of its own per client address (the socket's, see client-address.ts),
 * counted first, before the body is read: for a public route that takes uploads (/verify).
 */
export function rateLimitedPublicDoor(limiter: TRateLimiter): TDoor<null> {
  return {
    ...publicDoor,
    async admit(req, meta, getDb) {
      Object.assign(meta.headers, rateLimitHeaders(takeRateLimit(clientAddressOf(req), limiter)));
      return publicDoor.admit(req, meta, getDb);
    },
  };
}
