import type { TSigningRequest } from "@/server/domain/signing/schemas";
import { clientAddressOf } from "./steps/client-address";

/** The signing page's caller: the link's token and, for the audit trail, the address and user agent. */
export function signingRequest(req: Request, token: string): TSigningRequest {
  return { token, clientAddress: clientAddressOf(req), userAgent: req.headers.get("user-agent") };
}
