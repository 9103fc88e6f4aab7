import { env } from "@/server/env";
import { errors } from "@/server/lib/errors";
import { vetTarget } from "@/server/domain/webhooks/delivery/vet-target";

/**
 * Said after an http:// or private-address refusal: a developer trying a local receiver otherwise has no way to
 * learn that the operator can allow one.
 */
const DEV_SWITCH_HINT = "For a receiver on your own machine during development, the operator can start Foliosign with WEBHOOK_ALLOW_PRIVATE_TARGETS=true";

/** Registration-time check of an endpoint URL: public https that resolves only to public addresses, else 422 on `url`. */
export async function assertRegistrableUrl(url: string): Promise<string> {
  const allowPrivate = env().WEBHOOK_ALLOW_PRIVATE_TARGETS;
  const vetted = await vetTarget(url, { allowPrivate });
  if (!vetted.ok) {
    const local = vetted.reason === "private_address" || (vetted.reason === "invalid_url" && url.startsWith("http://"));
    throw errors.validation({ url: [local && !allowPrivate ? `${vetted.message}. ${DEV_SWITCH_HINT}` : vetted.message] });
  }
  return vetted.url.toString();
}
