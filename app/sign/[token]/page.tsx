import type { Metadata } from "next";
import { cookies } from "next/headers";
import { notFound } from "next/navigation";
import { connection } from "next/server";
import { AuthenticationCheck } from "@/components/signing/authentication-check";
import { SigningEndPage } from "@/components/signing/signing-end-page";
import { SigningPage } from "@/components/signing/signing-page";
import { getDb } from "@/server/db/client";
import { SigningRefusal } from "@/server/domain/signing/signing-refusal";
import { getSigningView } from "@/server/domain/signing/get-signing-view";

// The URL holds the credential: never sent on as a Referer, never indexed.
export const metadata: Metadata = { title: "Sign", referrer: "no-referrer", robots: { index: false, follow: false } };

type TProps = { params: Promise<{ token: string }> };

/**
 * The recipient's signing page: outside the signed-in shell; the link's token is the only credential, and for a
 * recipient with an access or email code, the check passed in this browser (docs/decisions/signer-authentication.md).
 * A link that opens nothing answers 404 (not-found.tsx); a link whose package ended shows its end page (200).
 */
export default async function SignPage({ params }: TProps) {
  await connection();
  const { token } = await params;
  // The signer cookie (set when this browser passed an access or email code) decides whether the check shows.
  const jar = Object.fromEntries((await cookies()).getAll().map((c) => [c.name, c.value]));
  const view = await getSigningView(await getDb(), { token, clientAddress: null, userAgent: null, cookies: jar }).catch((err: unknown) => {
    if (err instanceof SigningRefusal && err.reason === "NOT_FOUND") return null;
    throw err;
  });
  // Unknown, replaced and expired links are one refusal (find-signing-session.ts: a link never tells which):
  // not-found.tsx shows the same clear page, with a 404.
  if (!view) notFound();
  if (view.state === "AUTHENTICATION_REQUIRED")
    return <AuthenticationCheck token={token} packageTitle={view.packageTitle} authentication={view.authentication} />;
  if (view.state === "CLOSED") return <SigningEndPage reason={view.reason} packageTitle={view.packageTitle} signedCopy={view.signedCopy} token={token} />;
  return <SigningPage token={token} initial={view} />;
}
