import { createWebhookDeliveryJob } from "./webhook-delivery-job";
import { createWebhookRetentionJob } from "./webhook-retention-job";
import type { TJob } from "./worker";

/** Every background job, in the order a tick runs them. Capabilities add theirs here. */
export function allJobs(): TJob[] {
  return [createWebhookDeliveryJob(), createWebhookRetentionJob()];
}
