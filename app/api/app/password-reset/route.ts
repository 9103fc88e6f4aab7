import { publicAppRoute } from "@/server/auth/app-route";
import { requestPasswordReset } from "@/server/domain/organisation/email-password-reset";
import { appRequestPasswordReset } from "@/server/domain/organisation/operations";
import { PASSWORD_RESET_RATE_LIMITER } from "@/server/http/steps/rate-limit";

// POST /api/app/password-reset – "Forgot your password?": a reset link by mail, if the address is a member's
export const POST = publicAppRoute(appRequestPasswordReset, ({ db, body }) => requestPasswordReset(db, body), { rateLimit: PASSWORD_RESET_RATE_LIMITER });
