import { fileSweepJobs } from "@/server/domain/file-sweep/jobs";
import { mailJobs } from "@/server/domain/mail/jobs";
import { packageJobs } from "@/server/domain/packages/jobs";
import { webhookRetentionJobs } from "@/server/domain/webhooks/jobs";
import { idempotencyJobs } from "@/server/http/idempotency/jobs";
import { signInThrottleJobs } from "@/server/auth/sign-in-throttle-jobs";
import { memberSessionJobs } from "@/server/domain/member-sessions/jobs";
import { runDeclaredJob } from "./run-declared-job";
import { createBackupJob } from "./backup-job";
import { createEvidenceJob } from "./evidence-job";
import { createSealingJob } from "./sealing-job";
import { createWebhookDeliveryJob } from "./webhook-delivery-job";
import type { TJob } from "./worker";

/**
 * Every background job, in the order a tick runs them. Capabilities add their declared jobs here (see
 * README.md); the webhook delivery queue is the one job with its own claim.
 */
export function allJobs(): TJob[] {
  const declared = [
    ...Object.values(packageJobs()),
    ...Object.values(mailJobs()),
    ...Object.values(webhookRetentionJobs()),
    ...Object.values(idempotencyJobs()),
    ...Object.values(fileSweepJobs()),
    ...Object.values(signInThrottleJobs()),
    ...Object.values(memberSessionJobs()),
  ];
  return [createWebhookDeliveryJob(), ...declared.map((job) => runDeclaredJob(job)), createSealingJob(), createEvidenceJob(), createBackupJob()];
}
