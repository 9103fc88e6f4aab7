/**
 * The keys capability's operations: the app's own routes behind Settings → API keys (internal, owner only).
 * Keys are issued in the app or by the CLI, never through the public API.
 */
import { defineOperation } from "@/server/domain/operation";
import { z } from "@/server/lib/zod";
import { ZApiKeyListItem, ZApiKeyParams, ZCreateApiKey, ZCreatedApiKey, ZRevokedApiKey } from "./schemas";

const app = { tag: "App: API keys", internal: true, ownerOnly: true } as const;

export const appListApiKeys = defineOperation({
  ...app,
  operationId: "appListApiKeys",
  method: "GET",
  path: "/api/app/api-keys",
  summary: "The organisation's keys, newest first, revoked ones included",
  response: z.array(ZApiKeyListItem),
});

export const appCreateApiKey = defineOperation({
  ...app,
  operationId: "appCreateApiKey",
  method: "POST",
  path: "/api/app/api-keys",
  summary: "Issue a key; the value is in this response only (409 beyond 50 unrevoked keys, or on a name an active key has in any case)",
  successStatus: 201,
  body: ZCreateApiKey,
  response: ZCreatedApiKey,
  errors: [409],
});

export const appRevokeApiKey = defineOperation({
  ...app,
  operationId: "appRevokeApiKey",
  method: "POST",
  path: "/api/app/api-keys/{keyId}/revoke",
  summary: "Revoke a key at once and for good; revoking it again is a no-op",
  params: ZApiKeyParams,
  response: ZRevokedApiKey,
  errors: [404],
});
