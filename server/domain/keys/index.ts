/** The keys capability, for the app's pages and the CLI. */
export { createApiKey, MAX_UNREVOKED_KEYS } from "./create-api-key";
export { listApiKeys, apiKeyStatus } from "./list-api-keys";
export { keyInoperativeReason } from "./key-inoperative-reason";
export { revokeApiKey } from "./revoke-api-key";
export { endOfDayInZone, isValidTimeZone } from "./end-of-day";
export * from "./schemas";
