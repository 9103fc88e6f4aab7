/** The Readiness page's one write: a real test message through SMTP_URL, now. Internal: the app's concern only. */
import { z } from "@/server/lib/zod";

export const ZReadinessTestMessage = z
  .object({
    status: z.enum(["ok", "fail"]).openapi({ description: "ok: the SMTP server accepted the message; fail: it did not, or none is configured" }),
    message: z.string().openapi({ description: "What happened, with the server's answer (no credentials)" }),
  })
  .openapi("ReadinessTestMessage");

export type TReadinessTestMessage = z.infer<typeof ZReadinessTestMessage>;
