"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { apiFetch } from "@/components/lib/api-client";
import type { TJson } from "@/components/lib/json";
import type { TDeletedWorkspace } from "@/server/domain/organisation/delete-workspace";
import type { TCreateWorkspace, TWorkspaceItem } from "@/server/domain/organisation/schemas";

export type TWorkspace = TJson<TWorkspaceItem>;

export const workspaceKeys = {
  all: ["workspaces"] as const,
  list: () => [...workspaceKeys.all, "list"] as const,
};

/**
 * After a workspace changes, the list query and the shell: the sidebar's switcher (names, "(Test)") and the test
 * badge and banner are the signed-in layout's server props, so the route is refreshed too.
 */
function useWorkspacesChanged() {
  const queryClient = useQueryClient();
  const router = useRouter();
  return async () => {
    router.refresh();
    await queryClient.invalidateQueries({ queryKey: workspaceKeys.list(), exact: true });
  };
}

export function useWorkspaces() {
  return useQuery({ queryKey: workspaceKeys.list(), queryFn: () => apiFetch<TWorkspace[]>("/api/app/workspaces") });
}

export function useCreateWorkspace() {
  const changed = useWorkspacesChanged();
  return useMutation({
    mutationFn: (input: TCreateWorkspace) => apiFetch<TWorkspace>("/api/app/workspaces", { method: "POST", body: input }),
    onSuccess: changed,
  });
}

/** Test mode on or off (owner only): the answer says how many of the workspace's keys were revoked. */
export function useSetWorkspaceTestMode() {
  const changed = useWorkspacesChanged();
  return useMutation({
    mutationFn: ({ id, test }: { id: string; test: boolean }) =>
      apiFetch<TWorkspace & { keysRevoked: number }>(`/api/app/workspaces/${encodeURIComponent(id)}/test-mode`, { method: "PUT", body: { test } }),
    onSuccess: changed,
  });
}

export function useRenameWorkspace() {
  const changed = useWorkspacesChanged();
  return useMutation({
    mutationFn: ({ id, ...input }: TCreateWorkspace & { id: string }) =>
      apiFetch<TWorkspace>(`/api/app/workspaces/${encodeURIComponent(id)}`, { method: "PATCH", body: input }),
    onSuccess: changed,
  });
}

export type TWorkspaceDeletion = TJson<TDeletedWorkspace>;

/** What deleting the workspace would take with it (owner only), read while the dialog is open; never cached. */
export function useWorkspaceDeletionPreview(id: string | null) {
  return useQuery({
    queryKey: [...workspaceKeys.all, "deletion", id],
    queryFn: () => apiFetch<TWorkspaceDeletion>(`/api/app/workspaces/${encodeURIComponent(id!)}/deletion`),
    enabled: id !== null,
    gcTime: 0,
    staleTime: 0,
    retry: false,
  });
}

/** Deletes a workspace and everything in it (owner only): the answer says what went. */
export function useDeleteWorkspace() {
  const changed = useWorkspacesChanged();
  return useMutation({
    mutationFn: (id: string) => apiFetch<TWorkspaceDeletion>(`/api/app/workspaces/${encodeURIComponent(id)}`, { method: "DELETE" }),
    onSuccess: changed,
  });
}
