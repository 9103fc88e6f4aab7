import type { Metadata } from "next";
import { SigningEndPage } from "@/components/signing/signing-end-page";

// Like every signing page: never a Referer, never indexed.
export const metadata: Metadata = { title: "Sign", referrer: "no-referrer", robots: { index: false, follow: false } };

/** An embedded signing page whose link does not exist: the signing link's clear page, with HTTP 404 (page.tsx calls notFound()). */
export default function SigningLinkNotFound() {
  return <SigningEndPage reason="NOT_FOUND" />;
}
