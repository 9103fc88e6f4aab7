"use client";

import { useMutation, useQuery, useQueryClient, type QueryClient } from "@tanstack/react-query";
import type { z } from "zod";
import { apiFetch } from "@/components/lib/api-client";
import type { TTemplateStatus } from "@/server/db/schema/templates";
import type {
  ZAddDocument,
  ZAddedDocument,
  ZCreateField,
  ZCreateRole,
  ZCreateTemplate,
  ZDeleted,
  ZDeletedRole,
  ZLockHolder,
  ZMergeField,
  ZSenderQuestion,
  ZTemplate,
  ZTemplateDocument,
  ZTemplateField,
  ZTemplateList,
  ZTemplateRole,
  ZUpdateField,
  ZUpdateRole,
  ZUpdateTemplate,
} from "@/server/domain/templates/schemas";

export type TTemplate = z.output<typeof ZTemplate>;
export type TTemplateList = z.output<typeof ZTemplateList>;
export type TTemplateDocument = z.output<typeof ZTemplateDocument>;
export type TTemplateField = z.output<typeof ZTemplateField>;
export type TTemplateRole = z.output<typeof ZTemplateRole>;
export type TLockHolder = z.output<typeof ZLockHolder>;
export type TAddedDocument = z.output<typeof ZAddedDocument>;
export type TMergeField = z.input<typeof ZMergeField>;
export type TSenderQuestion = z.input<typeof ZSenderQuestion>;
export type TCreateTemplateInput = z.input<typeof ZCreateTemplate>;
export type TUpdateTemplateInput = z.input<typeof ZUpdateTemplate>;
export type TAddDocumentInput = z.input<typeof ZAddDocument>;
export type TCreateRoleInput = z.input<typeof ZCreateRole>;
export type TUpdateRoleInput = z.input<typeof ZUpdateRole>;
export type TCreateFieldInput = z.input<typeof ZCreateField>;
export type TUpdateFieldInput = z.input<typeof ZUpdateField>;
export type TListFilters = { status: TTemplateStatus | "all"; search: string; page: number };

export const TEMPLATES_PAGE_SIZE = 20;
const base = "/api/app/templates";
const tpl = (id: string) => `${base}/${encodeURIComponent(id)}`;

/** Every template query of the app, keyed by what it reads. */
export const templateKeys = {
  all: ["templates"] as const,
  lists: () => [...templateKeys.all, "list"] as const,
  list: (filters: TListFilters) => [...templateKeys.lists(), filters] as const,
  template: (id: string) => [...templateKeys.all, "template", id] as const,
  /** The mutation key of every change made in the editor: the autosave indicator counts these. */
  saves: (id: string) => [...templateKeys.all, "save", id] as const,
};

/** The URL the browser's pdf.js reads a stored document from (session cookie, same origin). */
export function documentFileUrl(templateId: string, documentId: string): string {
  return `${tpl(templateId)}/documents/${encodeURIComponent(documentId)}/file`;
}

export function lockUrl(templateId: string, force = false): string {
  return `${tpl(templateId)}/lock${force ? "?force=true" : ""}`;
}

export function useTemplateList(filters: TListFilters) {
  const params = new URLSearchParams({ page: String(filters.page), pageSize: String(TEMPLATES_PAGE_SIZE) });
  if (filters.status !== "all") params.set("status", filters.status);
  if (filters.search.trim()) params.set("search", filters.search.trim());
  return useQuery({
    queryKey: templateKeys.list(filters),
    queryFn: () => apiFetch<TTemplateList>(`${base}?${params}`),
    placeholderData: (previous) => previous,
  });
}

/** Polls while a document is still waiting for its bytes (another tab or an API client may be uploading). */
export function useTemplate(id: string) {
  return useQuery({
    queryKey: templateKeys.template(id),
    queryFn: () => apiFetch<TTemplate>(tpl(id)),
    refetchInterval: (q) => (q.state.data?.documents.some((d) => d.uploadState === "AWAITING_UPLOAD") ? 5000 : false),
  });
}

/**
 * After a change: refetch the template once no other change of it is still in flight (an earlier answer must
 * not overwrite a later optimistic update), and the lists (their counts and updated times changed).
 */
function invalidateTemplate(qc: QueryClient, id: string) {
  const tasks: Promise<void>[] = [qc.invalidateQueries({ queryKey: templateKeys.lists() })];
  if (qc.isMutating({ mutationKey: templateKeys.saves(id) }) <= 1) {
    tasks.push(qc.invalidateQueries({ queryKey: templateKeys.template(id), exact: true }));
  }
  return Promise.all(tasks);
}

/** Applies a change to the cached template at once, so the editor never waits for the server to show it. */
async function patchCached(qc: QueryClient, id: string, change: (t: TTemplate) => TTemplate) {
  await qc.cancelQueries({ queryKey: templateKeys.template(id), exact: true });
  qc.setQueryData<TTemplate>(templateKeys.template(id), (t) => (t ? change(t) : t));
}

export function useCreateTemplate() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (input: TCreateTemplateInput) => apiFetch<TTemplate>(base, { method: "POST", body: input }),
    onSuccess: () => qc.invalidateQueries({ queryKey: templateKeys.lists() }),
  });
}

export function useUpdateTemplate(id: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationKey: templateKeys.saves(id),
    mutationFn: (input: TUpdateTemplateInput) => apiFetch<TTemplate>(tpl(id), { method: "PATCH", body: input }),
    onSettled: () => invalidateTemplate(qc, id),
  });
}

export function useAddDocument(id: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationKey: templateKeys.saves(id),
    mutationFn: (input: TAddDocumentInput) => apiFetch<TAddedDocument>(`${tpl(id)}/documents`, { method: "POST", body: input }),
    onSettled: () => invalidateTemplate(qc, id),
  });
}

export function useDeleteDocument(id: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationKey: templateKeys.saves(id),
    mutationFn: (documentId: string) => apiFetch<z.output<typeof ZDeleted>>(`${tpl(id)}/documents/${encodeURIComponent(documentId)}`, { method: "DELETE" }),
    onSettled: () => invalidateTemplate(qc, id),
  });
}

export function useConvertDocument(id: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationKey: templateKeys.saves(id),
    mutationFn: (documentId: string) =>
      apiFetch<TTemplateDocument>(`${tpl(id)}/documents/${encodeURIComponent(documentId)}/convert`, { method: "POST", body: {} }),
    onSettled: () => invalidateTemplate(qc, id),
  });
}

export function useCreateRole(id: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationKey: templateKeys.saves(id),
    mutationFn: (input: TCreateRoleInput) => apiFetch<TTemplateRole>(`${tpl(id)}/roles`, { method: "POST", body: input }),
    onSettled: () => invalidateTemplate(qc, id),
  });
}

export function useUpdateRole(id: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationKey: templateKeys.saves(id),
    mutationFn: ({ roleIndex, ...input }: TUpdateRoleInput & { roleIndex: number }) =>
      apiFetch<TTemplateRole>(`${tpl(id)}/roles/${roleIndex}`, { method: "PATCH", body: input }),
    onSettled: () => invalidateTemplate(qc, id),
  });
}

export function useDeleteRole(id: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationKey: templateKeys.saves(id),
    mutationFn: (roleIndex: number) => apiFetch<z.output<typeof ZDeletedRole>>(`${tpl(id)}/roles/${roleIndex}`, { method: "DELETE" }),
    onSettled: () => invalidateTemplate(qc, id),
  });
}

export function useCreateField(id: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationKey: templateKeys.saves(id),
    mutationFn: (input: TCreateFieldInput) => apiFetch<TTemplateField>(`${tpl(id)}/fields`, { method: "POST", body: input }),
    // Shown at once from the answer; the refetch after the last change confirms it.
    onSuccess: (field) => patchCached(qc, id, (t) => ({ ...t, fields: t.fields.some((f) => f.id === field.id) ? t.fields : [...t.fields, field] })),
    onSettled: () => invalidateTemplate(qc, id),
  });
}

export function useUpdateField(id: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationKey: templateKeys.saves(id),
    mutationFn: ({ fieldId, ...input }: TUpdateFieldInput & { fieldId: string }) =>
      apiFetch<TTemplateField>(`${tpl(id)}/fields/${encodeURIComponent(fieldId)}`, { method: "PATCH", body: input }),
    // Optimistic: a moved field stays where it was dropped while the change is on its way.
    onMutate: ({ fieldId, ...input }) =>
      patchCached(qc, id, (t) => ({
        ...t,
        fields: t.fields.map((f) => (f.id === fieldId ? ({ ...f, ...input } as TTemplateField) : f)),
      })),
    onSettled: () => invalidateTemplate(qc, id),
  });
}

export function useDeleteField(id: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationKey: templateKeys.saves(id),
    mutationFn: (fieldId: string) => apiFetch<z.output<typeof ZDeleted>>(`${tpl(id)}/fields/${encodeURIComponent(fieldId)}`, { method: "DELETE" }),
    onMutate: (fieldId) => patchCached(qc, id, (t) => ({ ...t, fields: t.fields.filter((f) => f.id !== fieldId) })),
    onSettled: () => invalidateTemplate(qc, id),
  });
}

/** Takes or renews the edit lock (2-minute lease); 409 names the member who holds it. */
/**
 * Reads the template again after its lock changed. A read still in flight (the editor's first load races the
 * lock it takes on open) may have read the template before the change: it is cancelled first, because
 * invalidating a query that has no data yet would only wait for that stale read, and the editor would stay
 * read-only under a lock this member holds.
 */
async function rereadTemplate(qc: QueryClient, id: string): Promise<void> {
  await qc.cancelQueries({ queryKey: templateKeys.template(id), exact: true });
  await qc.invalidateQueries({ queryKey: templateKeys.template(id), exact: true });
}

export function useTakeLock(id: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: () => apiFetch<TLockHolder>(lockUrl(id), { method: "POST", body: {} }),
    // The template answers who holds it now (and whether it is this member), whichever way it went.
    onSettled: () => rereadTemplate(qc, id),
  });
}

/** Releases one's own lock, or (an owner, `force`) breaks another member's. */
export function useReleaseLock(id: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (force: boolean) => apiFetch<unknown>(lockUrl(id, force), { method: "DELETE" }),
    onSettled: () => rereadTemplate(qc, id),
  });
}
