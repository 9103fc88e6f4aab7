"use client";

import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { apiFetch } from "@/components/lib/api-client";
import { uploadFile } from "@/components/lib/upload-file";
import type { TLibraryDocument, TUpdateLibraryDocument } from "@/server/domain/library/schemas";

export type { TLibraryDocument };

const base = "/api/app/library/documents";

/** Every library query of the app, keyed by what it reads. */
export const libraryKeys = {
  all: ["library"] as const,
  lists: () => [...libraryKeys.all, "list"] as const,
  list: (search: string) => [...libraryKeys.lists(), search] as const,
};

export function useLibraryDocuments(search: string) {
  return useQuery({
    queryKey: libraryKeys.list(search),
    queryFn: () => apiFetch<{ documents: TLibraryDocument[] }>(search ? `${base}?search=${encodeURIComponent(search)}` : base),
    // Keep the last results on screen while the next search runs (no flash of "Loading").
    placeholderData: keepPreviousData,
  });
}

export function useUploadLibraryDocument() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ file, name, onProgress }: { file: File; name: string; onProgress: (fraction: number) => void }) =>
      // Declared as a PDF whatever the browser guessed: the server checks the bytes, and the app's door takes
      // no other type for this upload (server/auth/same-origin-write.ts).
      uploadFile<TLibraryDocument>(`${base}?name=${encodeURIComponent(name)}`, file, onProgress, "application/pdf"),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: libraryKeys.lists() }),
  });
}

export function useRenameLibraryDocument() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, ...changes }: TUpdateLibraryDocument & { id: string }) =>
      apiFetch<TLibraryDocument>(`${base}/${encodeURIComponent(id)}`, { method: "PATCH", body: changes }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: libraryKeys.lists() }),
  });
}

export function useDeleteLibraryDocument() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => apiFetch<{ id: string; deleted: true }>(`${base}/${encodeURIComponent(id)}`, { method: "DELETE" }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: libraryKeys.lists() }),
  });
}
