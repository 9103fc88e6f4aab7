import { resolveWebhookScope, type TWebhookScope } from "@/server/domain/webhooks-app/resolve-webhook-scope";
import type { TSessionActor } from "@/server/domain/actor";
import { sessionRoute } from "./app-route";
import type { TAppRouteArgs, TAppRouteHandler, TAppRouteSpec } from "./session-route";
import { workspaceCookieFrom } from "./workspace-cookie";

/**
 * The app's webhook routes: a session (401), canManageWebhooks or owner (403), and the current workspace of
 * the member's organisation from the switcher's cookie — handed to the handler as `scope`.
 */
export function webhookRoute<const S extends TAppRouteSpec>(
  spec: S,
  handler: (args: TAppRouteArgs<S, TSessionActor> & { scope: TWebhookScope }) => Promise<unknown>,
): TAppRouteHandler {
  return sessionRoute(spec, async (args) => {
    const scope = await resolveWebhookScope(args.db, args.actor, { workspaceId: workspaceCookieFrom(args.req) });
    return handler({ ...args, scope });
  });
}
