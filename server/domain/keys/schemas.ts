/**
 * Every schema of the keys capability: what the app's routes accept (Settings → API keys) and what they
 * answer. The output types are inferred from these, so each shape is written once. Dates stay `Date` in
 * the domain and reach JSON as ISO strings.
 */
import { valueError, z } from "@/server/lib/zod";
import { isValidTimeZone } from "@/server/lib/zoned-time";

export const ZCreateApiKey = z
  .object({
    name: z.string().trim().min(1, "Name is required").max(100, "Use at most 100 characters"),
    roleId: z.string().min(1, "Choose a role"),
    workspaceId: z.string().min(1, "Choose a workspace"),
    /** The last day the key works, in the creator's time zone. */
    expiresOn: z.iso.date(valueError("Use a date like 2030-12-31")).optional(),
    /**
     * The creator's IANA time zone (the browser's `Intl.DateTimeFormat().resolvedOptions().timeZone`). Read
     * only with `expiresOn`, the day it places: without an expiry date it is ignored, never refused — the
     * owner never filled it in, so an unusual browser zone must not block a key that never expires.
     */
    timeZone: z.string().optional(),
  })
  .superRefine((v, ctx) => {
    if (!v.expiresOn) return;
    if (!v.timeZone) ctx.addIssue({ code: "custom", path: ["timeZone"], message: "A time zone is required with an expiry date" });
    else if (!isValidTimeZone(v.timeZone)) ctx.addIssue({ code: "custom", path: ["timeZone"], message: "Unknown time zone" });
  });
export type TCreateApiKey = z.output<typeof ZCreateApiKey>;

export const ZRevokeApiKey = z.object({ id: z.string().min(1) });
/** The operation's params as the route parsed them (the domain does not parse again). */
export type TRevokeApiKey = z.output<typeof ZRevokeApiKey>;

export const ZApiKeyParams = z.object({ keyId: z.string().min(1) });

export const ZApiKeyStatus = z.enum(["ACTIVE", "EXPIRED", "REVOKED"]);

export const ZKeyInoperativeReason = z.enum(["ISSUER_REMOVED", "ROLE_WITHOUT_API_ACCESS"]);
export type TKeyInoperativeReason = z.infer<typeof ZKeyInoperativeReason>;

/** One row of Settings > API keys: the spec's listed attributes. The value and its hash are never listed. */
export const ZApiKeyListItem = z.object({
  id: z.string(),
  name: z.string(),
  lastUsedAt: z.date().nullable(),
  prefix: z.string(),
  /** "Can do". */
  role: z.object({ id: z.string(), name: z.string() }),
  /** "Issued by" (still readable after the issuer was removed). */
  issuedBy: z.object({ id: z.string(), name: z.string(), email: z.string() }),
  workspace: z.object({ id: z.string(), name: z.string(), slug: z.string() }),
  /** Active, Expired {statusAt} or Revoked {statusAt}; revocation wins over expiry. */
  status: ZApiKeyStatus,
  statusAt: z.date().nullable(),
  /**
   * Set only for an ACTIVE key that the API nevertheless refuses (401): its issuer was removed from the
   * organisation, or its role no longer has API access. The status stays the spec's; this explains it.
   */
  inoperativeReason: ZKeyInoperativeReason.nullable(),
  expiresAt: z.date().nullable(),
  revokedAt: z.date().nullable(),
  createdAt: z.date(),
});
export type TApiKeyListItem = z.infer<typeof ZApiKeyListItem>;

export const ZCreatedApiKey = z.object({
  id: z.string(),
  name: z.string(),
  prefix: z.string(),
  /** The full key: returned here once, never stored, never readable again. */
  value: z.string(),
  expiresAt: z.date().nullable(),
});
export type TCreatedApiKey = z.infer<typeof ZCreatedApiKey>;

export const ZRevokedApiKey = z.object({ id: z.string(), revokedAt: z.date(), alreadyRevoked: z.boolean() });
export type TRevokedApiKey = z.infer<typeof ZRevokedApiKey>;
