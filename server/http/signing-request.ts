import type { TSigningRequest } from "@/server/domain/signing/schemas";
import { requestCookies } from "./signer-cookie";
import { clientAddressOf } from "./steps/client-address";

/**
 * The signing page's caller: the link's token, for the audit trail the address and user agent, and the cookies
 * (the signer cookie of a recipient who passed the check).
 */
export function signingRequest(req: Request, token: string): TSigningRequest {
  return { token, clientAddress: clientAddressOf(req), userAgent: req.headers.get("user-agent"), cookies: requestCookies(req) };
}
