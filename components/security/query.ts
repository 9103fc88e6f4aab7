"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { apiFetch } from "@/components/lib/api-client";
import type { TIpAllowlist, TSetIpAllowlist } from "@/server/domain/organisation/schemas";

export const securityKeys = {
  all: ["security"] as const,
  ipAllowlist: () => [...securityKeys.all, "ip-allowlist"] as const,
};

export function useIpAllowlist() {
  return useQuery({ queryKey: securityKeys.ipAllowlist(), queryFn: () => apiFetch<TIpAllowlist>("/api/app/ip-allowlist") });
}

export function useSetIpAllowlist() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: TSetIpAllowlist) => apiFetch<TIpAllowlist>("/api/app/ip-allowlist", { method: "PUT", body: input }),
    onSuccess: (saved) => queryClient.setQueryData(securityKeys.ipAllowlist(), saved),
  });
}
