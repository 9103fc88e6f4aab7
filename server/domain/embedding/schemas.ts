/**
 * Embedded signing's schemas (docs/decisions/embedded-signing.md): the workspace's allowed embed origins, and the
 * `embed` member of a signing-URL request. What is an origin: common/embed-origin.ts (shared with the editor).
 */
import { embedOriginProblem, MAX_EMBED_ORIGINS } from "@/common/embed-origin";
import { z } from "@/server/lib/zod";

/** One origin: scheme, host and port exactly as a browser serialises them; 422 names what is wrong. */
export const ZEmbedOrigin = z
  .string()
  .superRefine((value, ctx) => {
    const problem = embedOriginProblem(value);
    if (problem) ctx.addIssue({ code: "custom", message: problem });
  })
  .openapi({
    description: "https://host[:port] (http only for a loopback host); no path, no wildcard",
    example: "https://app.example.com",
  });

export const ZEmbedOrigins = z
  .object({ origins: z.array(z.string()).openapi({ description: "The origins allowed to frame this workspace's embedded signing pages" }) })
  .openapi("EmbedOrigins");
export type TEmbedOrigins = z.output<typeof ZEmbedOrigins>;

/** Each origin is checked where it stands (422 at `origins.<index>`); a repeat is refused at the repeat's index. */
export const ZSetEmbedOrigins = z
  .object({
    origins: z
      .array(ZEmbedOrigin)
      .max(MAX_EMBED_ORIGINS, `At most ${MAX_EMBED_ORIGINS} origins`)
      .superRefine((origins, ctx) => {
        origins.forEach((origin, i) => {
          if (origins.indexOf(origin) !== i) ctx.addIssue({ code: "custom", path: [i], message: "Listed twice" });
        });
      }),
  })
  .openapi("SetEmbedOrigins", { description: "Replaces the whole list; an empty list turns embedded signing off" });
export type TSetEmbedOrigins = z.output<typeof ZSetEmbedOrigins>;

/** `embed` on a signing-URL request: the page that will frame the signing, one of the workspace's origins. */
export const ZSigningUrlEmbed = z.object({ origin: z.string().min(1).max(300).openapi({ example: "https://app.example.com" }) }).openapi("SigningUrlEmbed", {
  description:
    "Ask for an embedded signing URL: single use, valid 5 minutes, framable only by this origin (listed in GET /settings/embed-origins; 422 at `embed.origin` otherwise). The page reports to that origin with postMessage: ready, field-signed, completed, declined, error",
});
