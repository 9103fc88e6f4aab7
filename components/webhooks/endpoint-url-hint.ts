/**
 * The endpoint form's hint under the URL: what registration will accept, which follows the server's
 * WEBHOOK_ALLOW_PRIVATE_TARGETS, as registration reads it (server/domain/webhooks/endpoints/assert-registrable-url.ts).
 */
export function endpointUrlHint(allowPrivateTargets: boolean): string {
  return allowPrivateTargets
    ? "The address of your server. This instance runs with WEBHOOK_ALLOW_PRIVATE_TARGETS=true (development only): http:// and private or loopback addresses such as http://localhost are accepted."
    : "A public https:// address of your server. Private and loopback addresses are refused.";
}
