import { appTwin, defineOperation } from "@/server/domain/operation";
import { ZEmbedOrigins, ZSetEmbedOrigins } from "./schemas";

// Reading the list: whoever sends packages (and so asks for embedded URLs) or manages the integration; changing
// it decides which sites may frame signing pages, an integration setting like webhooks.
const tag = "Embedded signing";
const appTag = "App: embedded signing";
const embedDoc =
  "The origins (scheme, host and port) whose pages may frame this workspace's embedded signing pages. " +
  "`POST /packages/{packageId}/signing-url` with `embed: { origin }` accepts only these; see the README's " +
  "Embedded signing section and `/embed/v1.js`.";

export const getEmbedOriginsOp = defineOperation({
  tag,
  operationId: "getEmbedOrigins",
  method: "GET",
  path: "/api/v1/settings/embed-origins",
  summary: "The origins allowed to frame embedded signing pages",
  description: embedDoc,
  permission: ["canSendPackages", "canManageWebhooks"],
  response: ZEmbedOrigins,
});

export const setEmbedOriginsOp = defineOperation({
  tag,
  operationId: "setEmbedOrigins",
  method: "PUT",
  path: "/api/v1/settings/embed-origins",
  summary: "Replace the origins allowed to frame embedded signing pages",
  description: `${embedDoc} At most 20; https only (http for a loopback host); each is refused (422 at \`origins.<index>\`) with a path, a wildcard, a default port, upper case, or when listed twice. Needs canManageWebhooks.`,
  permission: "canManageWebhooks",
  body: ZSetEmbedOrigins,
  response: ZEmbedOrigins,
});

export const appGetEmbedOriginsOp = appTwin(getEmbedOriginsOp, appTag);
export const appSetEmbedOriginsOp = appTwin(setEmbedOriginsOp, appTag);
