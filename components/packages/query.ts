"use client";

import { keepPreviousData, useMutation, useQuery, useQueryClient, type QueryClient } from "@tanstack/react-query";
import type { z } from "zod";
import { apiFetch } from "@/components/lib/api-client";
import type { TCustomField } from "@/server/domain/custom-fields/schemas";
import type { TMemberItem } from "@/server/domain/organisation/schemas";
import type {
  ZAuditEventList,
  ZCreateFromTemplate,
  ZDeletedPackage,
  ZPackage,
  ZPackageList,
  ZPackageShare,
  ZPackageShareList,
  ZPackageSummary,
  ZRemindResult,
  ZRemovedShare,
  ZSigningUrl,
  ZTransferPackage,
} from "@/server/domain/packages/schemas";
import type { ZPackageMailList } from "@/server/domain/mail/schemas";
import type { TSealingProblems } from "@/server/domain/sealing/schemas";
import { templateKeys, type TTemplate, type TTemplateList } from "@/components/templates/query";

export type TPackage = z.output<typeof ZPackage>;
export type TPackageSummary = z.output<typeof ZPackageSummary>;
export type TPackageList = z.output<typeof ZPackageList>;
export type TAuditEventList = z.output<typeof ZAuditEventList>;
export type TSigningUrl = z.output<typeof ZSigningUrl>;
export type TRemindResult = z.output<typeof ZRemindResult>;
export type TCreateFromTemplateInput = z.input<typeof ZCreateFromTemplate>;
export type TTransferInput = z.input<typeof ZTransferPackage>;
export type TPackageMailList = z.output<typeof ZPackageMailList>;
export type TPackageShare = z.output<typeof ZPackageShare>;
export type TPackageShareList = z.output<typeof ZPackageShareList>;
/** Members as JSON: the dates arrive as strings. */
export type TMember = Omit<TMemberItem, "inviteExpiresAt" | "joinedAt"> & { inviteExpiresAt: string | null; joinedAt: string };
export type TListTab = TPackageSummary["status"] | "VIEWED" | "all";
export type TPackageFilters = { status: TListTab; search: string; page: number };

export const PACKAGES_PAGE_SIZE = 20;
const base = "/api/app/packages";
const pkg = (id: string) => `${base}/${encodeURIComponent(id)}`;

/** Every package query of the app, keyed by what it reads. */
export const packageKeys = {
  all: ["packages"] as const,
  lists: () => [...packageKeys.all, "list"] as const,
  list: (filters: TPackageFilters) => [...packageKeys.lists(), filters] as const,
  detail: (id: string) => [...packageKeys.all, "detail", id] as const,
  audit: (id: string) => [...packageKeys.all, "audit", id] as const,
  /** Its mail and their delivery status (the package page's mail panel). */
  mail: (id: string) => [...packageKeys.all, "mail", id] as const,
  /** The members it is shared with (the package page's "Shared with" panel). */
  shares: (id: string) => [...packageKeys.all, "shares", id] as const,
  /** What the pages read besides packages: for the owner names, the new-package form and transfers. */
  members: () => ["members", "list"] as const,
  /** Under the templates' own keys, so a template change refreshes the form's choices. */
  activeTemplates: () => [...templateKeys.lists(), "active-for-packages"] as const,
  template: (id: string) => templateKeys.template(id),
  customFields: () => ["custom-fields", "list"] as const,
  /** The overview's sealing alert (packages whose sealing stopped or keeps failing). */
  sealingProblems: () => [...packageKeys.all, "sealing-problems"] as const,
};

export function usePackageList(filters: TPackageFilters) {
  const params = new URLSearchParams({ page: String(filters.page), pageSize: String(PACKAGES_PAGE_SIZE) });
  if (filters.status !== "all") params.set("status", filters.status);
  if (filters.search.trim()) params.set("search", filters.search.trim());
  return useQuery({
    queryKey: packageKeys.list(filters),
    queryFn: () => apiFetch<TPackageList>(`${base}?${params}`),
    placeholderData: keepPreviousData,
  });
}

/** While sealing is due, the page refreshes itself: the owner sees it complete (or fail) without a reload. */
const SEALING_POLL_MS = 3000;
/** While a message waits for the worker, its status is refreshed the same way. */
const MAIL_POLL_MS = 3000;

export function usePackage(id: string) {
  return useQuery({
    queryKey: packageKeys.detail(id),
    queryFn: () => apiFetch<TPackage>(pkg(id)),
    refetchInterval: (q) => (q.state.data?.sealing ? SEALING_POLL_MS : false),
  });
}

/** The package's messages: for members who send packages (the page does not ask for the others: 403). */
export function useSealingProblems() {
  return useQuery({ queryKey: packageKeys.sealingProblems(), queryFn: () => apiFetch<TSealingProblems>("/api/app/sealing/problems") });
}

export function usePackageMail(id: string) {
  return useQuery({
    queryKey: packageKeys.mail(id),
    queryFn: () => apiFetch<TPackageMailList>(`${pkg(id)}/mail`),
    refetchInterval: (q) => (q.state.data?.messages.some((m) => m.status === "QUEUED") ? MAIL_POLL_MS : false),
  });
}

/** The newest 100 events: a package's trail rarely has more; the page says when it was cut. */
export function usePackageAudit(id: string) {
  return useQuery({ queryKey: packageKeys.audit(id), queryFn: () => apiFetch<TAuditEventList>(`${pkg(id)}/audit-events?pageSize=100`) });
}

/** Whom the package is shared with, and whether this member may change that. */
export function usePackageShares(id: string) {
  return useQuery({ queryKey: packageKeys.shares(id), queryFn: () => apiFetch<TPackageShareList>(`${pkg(id)}/shares`) });
}

export function useMembers() {
  return useQuery({ queryKey: packageKeys.members(), queryFn: () => apiFetch<TMember[]>("/api/app/members"), staleTime: 60_000 });
}

export function useActiveTemplates() {
  return useQuery({
    queryKey: packageKeys.activeTemplates(),
    queryFn: () => apiFetch<TTemplateList>("/api/app/templates?status=ACTIVE&pageSize=100"),
  });
}

export function useTemplateForPackage(id: string | null) {
  return useQuery({
    queryKey: packageKeys.template(id ?? ""),
    queryFn: () => apiFetch<TTemplate>(`/api/app/templates/${encodeURIComponent(id ?? "")}`),
    enabled: Boolean(id),
  });
}

/** Custom field definitions; a plan without the feature answers 402, and the form then has no metadata. */
export function useCustomFields() {
  return useQuery({
    queryKey: packageKeys.customFields(),
    queryFn: () => apiFetch<{ customFields: TCustomField[] }>("/api/app/custom-fields"),
    retry: false,
  });
}

/**
 * After a change of one package, or a refusal (the package may have changed elsewhere, which is often why):
 * its detail, its trail, its mail (a send, reminder or void queues messages) and every list (status, counts
 * and order moved).
 */
function invalidatePackage(qc: QueryClient, id: string) {
  return Promise.all([
    qc.invalidateQueries({ queryKey: packageKeys.detail(id), exact: true }),
    qc.invalidateQueries({ queryKey: packageKeys.audit(id), exact: true }),
    qc.invalidateQueries({ queryKey: packageKeys.mail(id), exact: true }),
    qc.invalidateQueries({ queryKey: packageKeys.lists() }),
  ]);
}

function usePackageMutation<TIn, TOut>(id: string, run: (input: TIn) => Promise<TOut>) {
  const qc = useQueryClient();
  return useMutation({ mutationFn: run, onSettled: () => invalidatePackage(qc, id) });
}

export function useCreateFromTemplate() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (input: TCreateFromTemplateInput) => apiFetch<TPackage>(`${base}/from-template`, { method: "POST", body: input }),
    onSuccess: () => qc.invalidateQueries({ queryKey: packageKeys.lists() }),
  });
}

/** Sends now, or schedules with a future `sendAt` (ISO UTC). */
export function useSendPackage(id: string) {
  return usePackageMutation(id, (input: { sendAt?: string }) => apiFetch<TPackage>(`${pkg(id)}/send`, { method: "POST", body: input }));
}

/** Moves the send time of a SCHEDULED package. */
export function useReschedulePackage(id: string) {
  return usePackageMutation(id, (sendAt: string) => apiFetch<TPackage>(pkg(id), { method: "PATCH", body: { sendAt } }));
}

export function useHoldPackage(id: string) {
  return usePackageMutation(id, () => apiFetch<TPackage>(`${pkg(id)}/hold`, { method: "POST", body: {} }));
}

export function useResumePackage(id: string) {
  return usePackageMutation(id, () => apiFetch<TPackage>(`${pkg(id)}/resume`, { method: "POST", body: {} }));
}

export function useVoidPackage(id: string) {
  return usePackageMutation(id, (reason: string) => apiFetch<TPackage>(`${pkg(id)}/void`, { method: "POST", body: reason.trim() ? { reason } : {} }));
}

export function useRemindPackage(id: string) {
  return usePackageMutation(id, (sessionId: string | null) =>
    apiFetch<TRemindResult>(`${pkg(id)}/remind`, { method: "POST", body: sessionId ? { sessionId } : {} }),
  );
}

export function useTransferPackage(id: string) {
  return usePackageMutation(id, (input: TTransferInput) => apiFetch<TPackage>(`${pkg(id)}/transfer`, { method: "POST", body: input }));
}

/** Sealing stopped (sealing.state FAILED): due again now, with a fresh set of attempts. */
export function useRetrySeal(id: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: () => apiFetch<TPackage>(`${pkg(id)}/seal/retry`, { method: "POST", body: {} }),
    onSettled: () => Promise.all([invalidatePackage(qc, id), qc.invalidateQueries({ queryKey: packageKeys.sealingProblems(), exact: true })]),
  });
}

export function useSigningUrl(id: string) {
  // Issuing a link is audited: the trail changes.
  return usePackageMutation(id, (sessionId: string) => apiFetch<TSigningUrl>(`${pkg(id)}/signing-url`, { method: "POST", body: { sessionId } }));
}

/** Deleted: the detail must not be refetched (404); it is dropped from the cache and the lists refetch. */
export function useDeletePackage(id: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: () => apiFetch<z.output<typeof ZDeletedPackage>>(pkg(id), { method: "DELETE" }),
    onSuccess: () => {
      qc.removeQueries({ queryKey: packageKeys.detail(id), exact: true });
      qc.removeQueries({ queryKey: packageKeys.audit(id), exact: true });
      qc.removeQueries({ queryKey: packageKeys.mail(id), exact: true });
      qc.removeQueries({ queryKey: packageKeys.shares(id), exact: true });
      return qc.invalidateQueries({ queryKey: packageKeys.lists() });
    },
  });
}

/** A share changes the package's shares and its trail (each is audited), nothing else. */
function useShareMutation<TIn, TOut>(id: string, run: (input: TIn) => Promise<TOut>) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: run,
    onSettled: () =>
      Promise.all([
        qc.invalidateQueries({ queryKey: packageKeys.shares(id), exact: true }),
        qc.invalidateQueries({ queryKey: packageKeys.audit(id), exact: true }),
      ]),
  });
}

export function useSharePackage(id: string) {
  return useShareMutation(id, (userId: string) => apiFetch<TPackageShare>(`${pkg(id)}/shares`, { method: "POST", body: { userId } }));
}

/** Keyed by the member's user id (ConfirmItemDialog passes the item's id). */
export function useUnsharePackage(id: string) {
  return useShareMutation(id, (userId: string) =>
    apiFetch<z.output<typeof ZRemovedShare>>(`${pkg(id)}/shares/${encodeURIComponent(userId)}`, { method: "DELETE" }),
  );
}
