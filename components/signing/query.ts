"use client";

import { useMutation } from "@tanstack/react-query";
import { ApiError, apiFetch } from "@/components/lib/api-client";
import type { TJson } from "@/components/lib/json";
import type { TCompletedField as TCompletedFieldOut, TSigningField, TSigningView } from "@/server/domain/signing/schemas";

export type TField = TJson<TSigningField>;
/** An earlier recipient's finished field, shown read-only. */
export type TCompletedField = TJson<TCompletedFieldOut>;
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

/**
 * `?timeZone=Europe/Paris`: the browser's IANA zone, recorded on the session so the certificate prints the
 * signer's times in their zone (and UTC); nothing when the browser does not say.
 */
function timeZoneQuery(): string {
  try {
    const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    return zone ? `?${new URLSearchParams({ timeZone: zone })}` : "";
  } catch {
    return "";
  }
}

/** POST with the time zone; a zone the server does not know (422) must never stop a signature: sent again without. */
async function postWithTimeZone<T>(path: string): Promise<T> {
  const query = timeZoneQuery();
  try {
    return await apiFetch<T>(`${path}${query}`, { method: "POST" });
  } catch (err) {
    if (query && err instanceof ApiError && err.status === 422) return apiFetch<T>(path, { method: "POST" });
    throw err;
  }
}

export function useConsent(token: string) {
  return useMutation({ mutationFn: () => postWithTimeZone<{ consentAt: string }>(signingPaths(token).consent) });
}

export function useFinish(token: string) {
  return useMutation({ mutationFn: () => postWithTimeZone<TView>(signingPaths(token).finish) });
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
