/** The sealing capability's operation: the public /verify page's check (no sign-in; internal, not /api/v1). */
import { defineOperation } from "@/server/domain/operation";
import { ZVerification } from "./schemas";

export const appVerifySealedPdf = defineOperation({
  tag: "App: verify",
  internal: true,
  operationId: "appVerifySealedPdf",
  method: "POST",
  path: "/api/app/verify",
  summary: "Checks an uploaded PDF against this instance's seals (the raw PDF is the body, up to MAX_VERIFY_BYTES; VERIFY_RATE_LIMIT per minute per address)",
  rawBodyTypes: ["application/pdf"],
  response: ZVerification,
  errors: [400, 413],
});
