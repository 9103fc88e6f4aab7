/** The keys capability, for the app's pages and the CLI. */
export { createApiKey, MAX_UNREVOKED_KEYS, ZCreateApiKey, type TCreateApiKey, type TCreatedApiKey } from "./create-api-key";
export { listApiKeys, apiKeyStatus, type TApiKeyListItem, type TApiKeyStatus } from "./list-api-keys";
export { keyInoperativeReason, type TKeyInoperativeReason } from "./key-inoperative-reason";
export { revokeApiKey, ZRevokeApiKey, type TRevokeApiKey, type TRevokedApiKey } from "./revoke-api-key";
export { endOfDayInZone, isValidTimeZone } from "./end-of-day";
