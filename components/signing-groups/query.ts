"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { apiFetch } from "@/components/lib/api-client";
import type { TAddSigningGroupMember, TSigningGroup } from "@/server/domain/signing-groups/schemas";

export type { TSigningGroup };
export type TNewSigningGroup = { name: string; members: { email: string; name?: string | null }[] };

const base = "/api/app/signing-groups";
const one = (id: string) => `${base}/${encodeURIComponent(id)}`;

/** Every signing-group query of the app (one list: groups come with their members). */
export const signingGroupKeys = {
  all: ["signing-groups"] as const,
  list: () => [...signingGroupKeys.all, "list"] as const,
};

export function useSigningGroups() {
  return useQuery({ queryKey: signingGroupKeys.list(), queryFn: () => apiFetch<{ signingGroups: TSigningGroup[] }>(base) });
}

function useGroupMutation<I>(fn: (input: I) => Promise<unknown>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: signingGroupKeys.list(), exact: true }),
  });
}

export const useCreateSigningGroup = () => useGroupMutation((input: TNewSigningGroup) => apiFetch<TSigningGroup>(base, { method: "POST", body: input }));

export const useRenameSigningGroup = () =>
  useGroupMutation(({ id, name }: { id: string; name: string }) => apiFetch<TSigningGroup>(one(id), { method: "PATCH", body: { name } }));

export const useDeleteSigningGroup = () => useGroupMutation((id: string) => apiFetch<{ id: string; deleted: true }>(one(id), { method: "DELETE" }));

export const useAddSigningGroupMember = () =>
  useGroupMutation(({ groupId, ...member }: TAddSigningGroupMember & { groupId: string }) =>
    apiFetch<TSigningGroup>(`${one(groupId)}/members`, { method: "POST", body: member }),
  );

export const useRemoveSigningGroupMember = () =>
  useGroupMutation(({ groupId, memberId }: { groupId: string; memberId: string }) =>
    apiFetch<TSigningGroup>(`${one(groupId)}/members/${encodeURIComponent(memberId)}`, { method: "DELETE" }),
  );
