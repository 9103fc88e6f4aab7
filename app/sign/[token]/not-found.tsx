import type { Metadata } from "next";
import { SigningEndPage } from "@/components/signing/signing-end-page";

// The URL may still hold a credential (a replaced or expired link's token): never a Referer, never indexed.
export const metadata: Metadata = { title: "Sign", referrer: "no-referrer", robots: { index: false, follow: false } };

/** An unknown, replaced or expired signing link: the same clear page as before, now with HTTP 404 (page.tsx calls notFound()). */
export default function SigningLinkNotFound() {
  return <SigningEndPage reason="NOT_FOUND" />;
}
