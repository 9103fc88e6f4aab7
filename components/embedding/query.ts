"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { apiFetch } from "@/components/lib/api-client";
import type { TEmbedOrigins, TSetEmbedOrigins } from "@/server/domain/embedding/schemas";

const embedOriginsKey = ["embedding", "origins"] as const;

export function useEmbedOrigins() {
  return useQuery({ queryKey: embedOriginsKey, queryFn: () => apiFetch<TEmbedOrigins>("/api/app/settings/embed-origins") });
}

export function useSetEmbedOrigins() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: TSetEmbedOrigins) => apiFetch<TEmbedOrigins>("/api/app/settings/embed-origins", { method: "PUT", body: input }),
    onSuccess: (saved) => queryClient.setQueryData(embedOriginsKey, saved),
  });
}
