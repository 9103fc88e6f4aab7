/** @foliosign/client: a typed client for the Foliosign API and webhook signature verification (MIT). */
export { createFoliosignClient, FoliosignError, type TFoliosignClient, type TFoliosignClientOptions, type TUploadBody } from "./client";
export {
  verifyWebhook,
  WebhookVerificationError,
  type TVerifyWebhookOptions,
  type TWebhookEvent,
  type TWebhookHeaders,
  type TWebhookVerificationFailure,
} from "./webhooks";
export type { components, operations, paths } from "./generated/openapi";
