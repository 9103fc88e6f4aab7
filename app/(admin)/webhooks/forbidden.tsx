import { WebhooksForbidden } from "@/components/webhooks/webhooks-forbidden";

/** forbidden() in the webhook pages: their own 403 message (the permission, not ownership), with HTTP 403. */
export default function WebhooksForbiddenBoundary() {
  return <WebhooksForbidden />;
}
