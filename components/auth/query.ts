"use client";

import { useMutation } from "@tanstack/react-query";
import { signIn } from "next-auth/react";
import { apiFetch } from "@/components/lib/api-client";
import { parseSignInThrottled } from "@/common/sign-in-throttled";

export type TSetupInput = { name: string; email: string; password: string; organisationName: string };

/** Signed in, refused, or throttled (too many failed attempts) with the seconds to wait. */
export type TSignInResult = { ok: true } | { ok: false; retryAfterSeconds: number | null };

/** Signs in with next-auth's credentials provider without its redirect. */
export async function signInWithPassword(email: string, password: string): Promise<TSignInResult> {
  const result = await signIn("credentials", { email, password, redirect: false });
  if (result?.ok && !result.error) return { ok: true };
  return { ok: false, retryAfterSeconds: parseSignInThrottled(result?.error) };
}

/** First run: create the owner and organisation, then sign in as that owner. */
export function useSetupMutation() {
  return useMutation({
    mutationFn: async (input: TSetupInput) => {
      await apiFetch("/api/app/setup", { method: "POST", body: input });
      return (await signInWithPassword(input.email, input.password)).ok;
    },
  });
}
