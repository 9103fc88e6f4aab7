/**
 * Signer authentication on the sender's side (issue 21; docs/decisions/signer-authentication.md): the request
 * and response shapes of a recipient's `authentication` and `identity`, and the columns a recipient session
 * stores for them. The access code is kept only as a scrypt hash and never leaves this module in clear.
 */
import { SIGNER_AUTH_METHODS, type TRecipientSessionRow, type TSignerAuthMethod, type TSignerIdentity } from "@/server/db/schema";
import { hashPassword } from "@/server/lib/crypto";
import type { TErrorDetails } from "@/server/lib/errors";
import { valueError, z } from "@/server/lib/zod";

/** After this many wrong codes the session is locked until the sender unlocks or corrects it. */
export const MAX_AUTH_ATTEMPTS = 5;

export const ZSignerAuthMethod = z.enum(SIGNER_AUTH_METHODS).openapi("SignerAuthenticationMethod", {
  description:
    "How the signer proves who they are before the signing page shows the package. NONE: the signing link alone (default); ACCESS_CODE: a code the sender gives the signer out of band; EMAIL_CODE: a 6-digit code mailed to the recipient's address when they ask for it on the signing page (valid 10 minutes, single use, at most 5 an hour). 5 wrong codes lock the recipient until the sender unlocks or corrects them.",
});

export const ZRecipientAuthenticationInput = z
  .object({
    method: ZSignerAuthMethod,
    accessCode: z.string().trim().min(4, "At least 4 characters").max(50, "At most 50 characters").optional().openapi({
      description:
        "ACCESS_CODE only, and then required: 4 to 50 characters (surrounding spaces trimmed). Stored only as a hash: never returned, mailed, logged or sent in a webhook — give it to the signer yourself.",
      writeOnly: true,
      example: "blue-heron-42",
    }),
  })
  .superRefine((v, ctx) => {
    if (v.method === "ACCESS_CODE" && v.accessCode === undefined) {
      ctx.addIssue({ code: "custom", path: ["accessCode"], message: "Required with ACCESS_CODE: 4 to 50 characters" });
    }
    if (v.method !== "ACCESS_CODE" && v.accessCode !== undefined) {
      ctx.addIssue({ code: "custom", path: ["accessCode"], message: "Only with the ACCESS_CODE method" });
    }
  })
  .openapi("RecipientAuthenticationInput", { description: "How this signer must authenticate on the signing page; `{ method: NONE }` when omitted" });
export type TRecipientAuthenticationInput = z.output<typeof ZRecipientAuthenticationInput>;

export const ZSignerIdentityInput = z
  .object({
    method: z
      .string()
      .trim()
      .min(1, "Say how you authenticated the signer")
      .max(100, "At most 100 characters")
      .openapi({ description: "Free text: how you authenticated the signer, e.g. SSO (Okta)", example: "SSO (Okta)" }),
    assertionId: z
      .string()
      .trim()
      .min(1, "Enter the assertion's id or leave it out")
      .max(200, "At most 200 characters")
      .optional()
      .openapi({ description: "Your reference of that authentication (a SAML assertion or session id), printed on the certificate", example: "8f3a2c9e" }),
    authenticatedAt: z.iso
      .datetime({ offset: true, ...valueError("Use an ISO 8601 date-time, e.g. 2030-01-01T14:02:00Z") })
      .transform((s) => new Date(s).toISOString())
      .optional()
      .openapi({ type: "string", format: "date-time", description: "When you authenticated the signer", example: "2030-01-01T14:02:00Z" }),
  })
  .openapi("SignerIdentityInput", {
    description:
      "For an integrator that authenticated the signer itself before handing them a signing URL: recorded and printed on the certificate of completion (independent of `authentication`)",
  });
export type TSignerIdentityInput = z.output<typeof ZSignerIdentityInput>;

export const ZRecipientAuthentication = z
  .object({
    method: ZSignerAuthMethod,
    locked: z.boolean().openapi({ description: "5 wrong codes were entered: the signer cannot go on until the sender unlocks or corrects the recipient" }),
  })
  .openapi("RecipientAuthentication", { description: "The recipient's authentication method (never the code) and whether it is locked" });

export const ZSignerIdentity = z
  .object({
    method: z.string(),
    assertionId: z.string().nullable(),
    authenticatedAt: z.string().nullable().openapi({ format: "date-time" }),
  })
  .openapi("SignerIdentity", { description: "The identity the sender asserted for this signer (printed on the certificate); null when none" });

/** The session columns for a recipient's authentication (the access code hashed) and asserted identity. */
export async function authenticationColumns(
  authentication: TRecipientAuthenticationInput | undefined,
  identity: TSignerIdentityInput | null | undefined,
): Promise<Partial<Pick<TRecipientSessionRow, "authMethod" | "accessCodeHash" | "identity">>> {
  const columns: Partial<Pick<TRecipientSessionRow, "authMethod" | "accessCodeHash" | "identity">> = {};
  if (authentication) {
    columns.authMethod = authentication.method;
    columns.accessCodeHash = authentication.method === "ACCESS_CODE" && authentication.accessCode ? await hashPassword(authentication.accessCode) : null;
  }
  if (identity !== undefined) columns.identity = identity ? toIdentity(identity) : null;
  return columns;
}

function toIdentity(identity: TSignerIdentityInput): TSignerIdentity {
  return { method: identity.method, assertionId: identity.assertionId ?? null, authenticatedAt: identity.authenticatedAt ?? null };
}

/**
 * A template recipient's authentication: their own, else the role's preset. A role presetting ACCESS_CODE needs
 * the recipient to give the code (422 at `recipients.N.authentication.accessCode`).
 */
export function resolveRoleAuthentication(
  own: TRecipientAuthenticationInput | undefined,
  roleMethod: TSignerAuthMethod,
  path: string,
  details: TErrorDetails,
): TRecipientAuthenticationInput | undefined {
  if (own) return own;
  if (roleMethod === "ACCESS_CODE") {
    details[`${path}.authentication.accessCode`] = ["This role asks for an access code: give one in authentication"];
    return undefined;
  }
  return { method: roleMethod };
}

export function toRecipientAuthenticationView(s: Pick<TRecipientSessionRow, "authMethod" | "authLockedAt">) {
  return { method: s.authMethod, locked: s.authLockedAt !== null };
}

/** "a…@example.com": enough for the signer to recognise their address, not enough to harvest it. */
export function maskEmail(email: string | null): string | null {
  if (!email) return null;
  const at = email.lastIndexOf("@");
  if (at < 1) return "…";
  return `${email[0]}…${email.slice(at)}`;
}

/**
 * How the signer was authenticated, as the certificate of completion prints it: the identity the sender asserted
 * ("Identity asserted by the sender: SSO (Okta), assertion 8f3a2c9e, 2030-01-01 14:02 UTC") and the check the
 * signer passed ("Access code", "Email code to a…@example.com"), or "Signing link only".
 */
export function describeSignerAuthentication(s: Pick<TRecipientSessionRow, "authMethod" | "email" | "identity">): string {
  const parts: string[] = [];
  if (s.identity) {
    const id = s.identity;
    const assertion = id.assertionId ? `, assertion ${id.assertionId.length > 24 ? `${id.assertionId.slice(0, 24)}…` : id.assertionId}` : "";
    const at = id.authenticatedAt ? `, ${id.authenticatedAt.slice(0, 10)} ${id.authenticatedAt.slice(11, 16)} UTC` : "";
    parts.push(`Identity asserted by the sender: ${id.method}${assertion}${at}`);
  }
  if (s.authMethod === "ACCESS_CODE") parts.push("Access code");
  if (s.authMethod === "EMAIL_CODE") parts.push(`Email code to ${maskEmail(s.email) ?? "the recipient's address"}`);
  return parts.length ? parts.join("; ") : "Signing link only";
}
