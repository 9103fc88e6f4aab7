"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { apiFetch } from "@/components/lib/api-client";
import type { TJson } from "@/components/lib/json";
import type { TApiKeyListItem, TCreateApiKey, TCreatedApiKey, TRevokedApiKey } from "@/server/domain/keys/schemas";

export type TApiKey = TJson<TApiKeyListItem>;
export type TNewApiKey = TJson<TCreatedApiKey>;

export const apiKeyKeys = {
  all: ["api-keys"] as const,
  list: () => [...apiKeyKeys.all, "list"] as const,
};

export function useApiKeys() {
  return useQuery({ queryKey: apiKeyKeys.list(), queryFn: () => apiFetch<TApiKey[]>("/api/app/api-keys") });
}

export function useCreateApiKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: TCreateApiKey) => apiFetch<TNewApiKey>("/api/app/api-keys", { method: "POST", body: input }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: apiKeyKeys.list(), exact: true }),
  });
}

export function useRevokeApiKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (keyId: string) => apiFetch<TJson<TRevokedApiKey>>(`/api/app/api-keys/${encodeURIComponent(keyId)}/revoke`, { method: "POST" }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: apiKeyKeys.list(), exact: true }),
  });
}
