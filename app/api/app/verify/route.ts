import { publicAppRoute } from "@/server/auth/app-route";
import { env } from "@/server/env";
import { readBodyBytes } from "@/server/http/validation";
import { VERIFY_RATE_LIMITER } from "@/server/http/steps/rate-limit";
import { appVerifySealedPdf } from "@/server/domain/sealing/operations";
import { verifySealedUpload } from "@/server/domain/sealing/verify-sealed-upload";

// POST /api/app/verify – anyone checks a PDF (raw body) against this instance's seals (VERIFY_RATE_LIMIT per minute)
export const POST = publicAppRoute(
  appVerifySealedPdf,
  async ({ db, req }) =>
    verifySealedUpload(db, await readBodyBytes(req, env().MAX_VERIFY_BYTES, `The file is larger than this instance checks (${env().MAX_VERIFY_BYTES} bytes)`)),
  { rateLimit: VERIFY_RATE_LIMITER },
);
