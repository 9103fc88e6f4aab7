"use client";

import { useMutation } from "@tanstack/react-query";
import { apiFetch } from "@/components/lib/api-client";
import { signingPaths, type TView } from "./query";

/** What the signing page knows before the check is passed (the view's AUTHENTICATION_REQUIRED state). */
export type TAuthenticationState = Extract<TView, { state: "AUTHENTICATION_REQUIRED" }>["authentication"];

export type TEmailCodeSent = { sentAt: string; to: string | null };

function authenticationPaths(token: string) {
  const { base } = signingPaths(token);
  return { check: `${base}/authentication`, emailCode: `${base}/authentication/email-code` };
}

/** The code, checked by the server; passing sets the HttpOnly cookie for this browser session. */
export function useSubmitCode(token: string) {
  return useMutation({ mutationFn: (code: string) => apiFetch<unknown>(authenticationPaths(token).check, { method: "POST", body: { code } }) });
}

/** Mails a fresh 6-digit code to the recipient's address (the server limits how many an hour). */
export function useSendEmailCode(token: string) {
  return useMutation({ mutationFn: () => apiFetch<TEmailCodeSent>(authenticationPaths(token).emailCode, { method: "POST", body: {} }) });
}
