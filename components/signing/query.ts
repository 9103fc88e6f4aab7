"use client";

import { useMutation } from "@tanstack/react-query";
import { ApiError, apiFetch } from "@/components/lib/api-client";
import type { TJson } from "@/components/lib/json";
import type { TSigningField, TSigningView } from "@/server/domain/signing/schemas";

export type TField = TJson<TSigningField>;
export type TView = TJson<TSigningView>;
export type TOpenView = Extract<TView, { state: "OPEN" }>;

/** Every path of the signing page's backend, from the link's token (kept in the path, never in a query). */
export function signingPaths(token: string) {
  const base = `/api/app/sign/${encodeURIComponent(token)}`;
  return {
    base,
    open: `${base}/open`,
    consent: `${base}/consent`,
    finish: `${base}/finish`,
    decline: `${base}/decline`,
    document: (documentId: string) => `${base}/documents/${encodeURIComponent(documentId)}/file`,
    field: (fieldId: string) => `${base}/fields/${encodeURIComponent(fieldId)}`,
    image: (fieldId: string) => `${base}/fields/${encodeURIComponent(fieldId)}/image`,
  };
}

export function useConsent(token: string) {
  return useMutation({ mutationFn: () => apiFetch<{ consentAt: string }>(signingPaths(token).consent, { method: "POST" }) });
}

export function useFinish(token: string) {
  return useMutation({ mutationFn: () => apiFetch<TView>(signingPaths(token).finish, { method: "POST" }) });
}

export function useDecline(token: string) {
  return useMutation({ mutationFn: (reason: string) => apiFetch<TView>(signingPaths(token).decline, { method: "POST", body: { reason } }) });
}

export function saveFieldValue(token: string, fieldId: string, value: string | null): Promise<TField> {
  return apiFetch<TField>(signingPaths(token).field(fieldId), { method: "PUT", body: { value } });
}

/** PNG bytes as the body (not JSON): the server checks them by content and keeps them in the file store. */
export async function saveFieldImage(token: string, fieldId: string, png: Blob, kind: "drawn" | "uploaded"): Promise<TField> {
  let res: Response;
  try {
    res = await fetch(`${signingPaths(token).image(fieldId)}?kind=${kind}`, {
      method: "PUT",
      headers: { accept: "application/json", "content-type": "image/png" },
      body: png,
      credentials: "same-origin",
    });
  } catch {
    throw new ApiError(0, "Could not reach the server. Check your connection and try again.");
  }
  const payload = (await res.json().catch(() => null)) as { data?: TField; error?: string } | null;
  if (!res.ok) throw new ApiError(res.status, payload?.error ?? `Request failed (${res.status})`);
  return payload!.data!;
}
