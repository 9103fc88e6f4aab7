"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { apiFetch } from "@/components/lib/api-client";
import type { TCustomField, TUpdateCustomField } from "@/server/domain/custom-fields/schemas";

export type { TCustomField };
export type TNewCustomField = { key: string; label: string; active: boolean; templateId: string | null };

const base = "/api/app/custom-fields";
const one = (id: string) => `${base}/${encodeURIComponent(id)}`;

/** Every custom-field query of the app (the management list shows inactive ones too). */
export const customFieldKeys = {
  all: ["custom-fields"] as const,
  list: () => [...customFieldKeys.all, "list"] as const,
};

export function useCustomFields() {
  return useQuery({ queryKey: customFieldKeys.list(), queryFn: () => apiFetch<{ customFields: TCustomField[] }>(base), retry: false });
}

function useFieldMutation<I>(fn: (input: I) => Promise<unknown>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: customFieldKeys.list(), exact: true }),
  });
}

export const useCreateCustomField = () => useFieldMutation((input: TNewCustomField) => apiFetch<TCustomField>(base, { method: "POST", body: input }));

export const useUpdateCustomField = () =>
  useFieldMutation(({ id, ...changes }: TUpdateCustomField & { id: string }) => apiFetch<TCustomField>(one(id), { method: "PATCH", body: changes }));

export const useDeleteCustomField = () => useFieldMutation((id: string) => apiFetch<{ id: string; deleted: true }>(one(id), { method: "DELETE" }));
