/** The sealing capability's operations, all internal (not /api/v1): the public /verify page's check, the app's "Retry sealing" and the overview's sealing alert. */
import { defineOperation } from "@/server/domain/operation";
import { ZPackage, ZPackageParams } from "@/server/domain/packages/schemas";
import { ZSealingProblems, ZVerification } from "./schemas";

export const appVerifySealedPdf = defineOperation({
  tag: "App: verify",
  internal: true,
  operationId: "appVerifySealedPdf",
  method: "POST",
  path: "/api/app/verify",
  summary: "Checks an uploaded PDF against this instance's seals (the raw PDF is the body, up to MAX_VERIFY_BYTES; VERIFY_RATE_LIMIT per minute per address)",
  // The handler reads the raw bytes itself; declared so the wrapper does not read them as JSON (and, as for
  // every raw upload of the app's door, a body of another type is 415).
  rawBodyTypes: ["application/pdf"],
  response: ZVerification,
  errors: [400, 413],
});

export const appRetrySealOp = defineOperation({
  tag: "App: packages",
  internal: true,
  operationId: "appRetrySeal",
  method: "POST",
  path: "/api/app/packages/{packageId}/seal/retry",
  permission: "canSendPackages",
  summary: "Retry sealing a package whose sealing stopped (sealing.state FAILED): due again now, with a fresh set of attempts",
  description: "409 when sealing has not stopped (pending, retrying on its own, or the package is not being sealed).",
  params: ZPackageParams,
  response: ZPackage,
  errors: [404, 409],
});

export const appListSealingProblemsOp = defineOperation({
  tag: "App: packages",
  internal: true,
  operationId: "appListSealingProblems",
  method: "GET",
  path: "/api/app/sealing/problems",
  summary:
    "The overview's sealing alert: packages you can see whose sealing stopped (FAILED) or keeps failing (RETRYING), stopped ones first, at most 5, with the totals",
  response: ZSealingProblems,
});
