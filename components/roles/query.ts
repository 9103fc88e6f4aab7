"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { apiKeyKeys } from "@/components/api-keys/query";
import { apiFetch } from "@/components/lib/api-client";
import type { TCreateRole, TRoleItem, TUpdateRole } from "@/server/domain/organisation/schemas";

export type TRole = TRoleItem;

export const roleKeys = {
  all: ["roles"] as const,
  list: () => [...roleKeys.all, "list"] as const,
};

export function useRoles() {
  return useQuery({ queryKey: roleKeys.list(), queryFn: () => apiFetch<TRole[]>("/api/app/roles") });
}

export function useCreateRole() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: TCreateRole) => apiFetch<{ id: string }>("/api/app/roles", { method: "POST", body: input }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: roleKeys.list(), exact: true }),
  });
}

export function useUpdateRole() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, ...changes }: TUpdateRole) => apiFetch<{ id: string }>(`/api/app/roles/${encodeURIComponent(id)}`, { method: "PATCH", body: changes }),
    // The keys list shows each key's role ("Can do"), so a renamed role changes it too.
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: roleKeys.list(), exact: true }),
        queryClient.invalidateQueries({ queryKey: apiKeyKeys.list(), exact: true }),
      ]),
  });
}

export function useDeleteRole() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => apiFetch<{ id: string; deleted: true }>(`/api/app/roles/${encodeURIComponent(id)}`, { method: "DELETE" }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: roleKeys.list(), exact: true }),
  });
}
