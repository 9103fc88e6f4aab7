/**
 * Schemas of the mail capability: what the app's own routes (/api/app/mail/…) accept and answer. Internal only:
 * mail is the app's concern, not the public API's.
 */
import { MAIL_KINDS, MAIL_STATUSES, MAIL_TRANSPORTS } from "@/server/db/schema/mail";
import { ZPageQuery } from "@/server/lib/pagination";
import { z } from "@/server/lib/zod";

const ZTime = z.string().openapi({ format: "date-time", example: "2030-01-01T12:00:00.000Z" });

export const ZMailSummary = z
  .object({
    id: z.string(),
    kind: z.enum(MAIL_KINDS),
    to: z.object({ email: z.string(), name: z.string().nullable() }),
    subject: z.string(),
    status: z.enum(MAIL_STATUSES).openapi({
      description:
        "QUEUED: waiting for its (next) attempt. SENT: accepted by the SMTP server. FAILED: given up. KEPT: kept in the outbox (no SMTP server configured, or a test workspace's message)",
    }),
    transport: z.enum(MAIL_TRANSPORTS).nullable(),
    test: z.boolean().openapi({ description: "Queued in a test workspace: never sent, only kept in the outbox" }),
    attempts: z.number().int(),
    nextAttemptAt: ZTime.nullable(),
    lastError: z.string().nullable(),
    sentAt: ZTime.nullable(),
    createdAt: ZTime,
    packageId: z.string().nullable(),
    sessionId: z.string().nullable(),
  })
  .openapi("MailSummary");

export const ZMailLink = z.object({ text: z.string(), url: z.string() }).openapi("MailLink");

export const ZMailDetail = ZMailSummary.extend({
  html: z.string().openapi({ description: 'The HTML part; show it in a sandboxed iframe (srcdoc, sandbox="")' }),
  text: z.string(),
  links: z.array(ZMailLink).openapi({ description: "Every link of the HTML part, in order, without repeats" }),
  serverResponse: z.string().nullable(),
}).openapi("MailDetail");

export const ZMailListQuery = ZPageQuery.extend({
  status: z.enum(MAIL_STATUSES).optional(),
});

export const ZMailList = z
  .object({
    messages: z.array(ZMailSummary),
    totalCount: z.number().int(),
    page: z.number().int(),
    pageSize: z.number().int(),
    transport: z.enum(MAIL_TRANSPORTS).openapi({ description: "smtp when SMTP_URL is set, else outbox" }),
  })
  .openapi("MailList");

export const ZMailParams = z.object({ messageId: z.string().min(1).max(100) });

export const ZPackageMailList = z
  .object({ messages: z.array(ZMailSummary).openapi({ description: "Every message about the package, oldest first" }) })
  .openapi("PackageMailList");

export type TMailSummary = z.output<typeof ZMailSummary>;
export type TMailDetail = z.output<typeof ZMailDetail>;
export type TMailListQuery = z.output<typeof ZMailListQuery>;
