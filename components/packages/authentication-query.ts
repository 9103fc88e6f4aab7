"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiFetch } from "@/components/lib/api-client";
import { packageKeys } from "./query";

/** A recipient locked by wrong codes, unlocked by the sender: the package and its trail change. */
export function useUnlockRecipient(packageId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (sessionId: string) =>
      apiFetch<unknown>(`/api/app/packages/${encodeURIComponent(packageId)}/recipients/${encodeURIComponent(sessionId)}/authentication/unlock`, {
        method: "POST",
        body: {},
      }),
    onSettled: () =>
      Promise.all([
        qc.invalidateQueries({ queryKey: packageKeys.detail(packageId), exact: true }),
        qc.invalidateQueries({ queryKey: packageKeys.audit(packageId), exact: true }),
      ]),
  });
}
