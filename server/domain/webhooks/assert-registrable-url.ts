import { env } from "@/server/env";
import { errors } from "@/server/http/errors";
import { vetTarget } from "./vet-target";

/** Registration-time check of an endpoint URL: public https that resolves only to public addresses, else 422 on `url`. */
export async function assertRegistrableUrl(url: string): Promise<string> {
  const vetted = await vetTarget(url, { allowPrivate: env().WEBHOOK_ALLOW_PRIVATE_TARGETS });
  if (!vetted.ok) throw errors.validation({ url: [vetted.message] });
  return vetted.url.toString();
}
