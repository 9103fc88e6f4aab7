"use client";

import { useMutation, useQuery } from "@tanstack/react-query";
import { apiFetch } from "@/components/lib/api-client";
import type { TMailStatus } from "@/server/db/schema/mail";
import type { TMailDetail, TMailSummary } from "@/server/domain/mail/schemas";
import type { listMail } from "@/server/domain/mail/list-mail";

export type TMailList = Awaited<ReturnType<typeof listMail>>;
export type { TMailDetail, TMailSummary };

const base = "/api/app/mail";

/** Refresh while something is still waiting for the worker, so a status changes without a reload. */
const whileQueued = (statuses: TMailStatus[]) => (statuses.includes("QUEUED") ? 2000 : false);

export function useMailList(page: number, status: TMailStatus | undefined) {
  const qs = new URLSearchParams({ page: String(page), pageSize: "25", ...(status ? { status } : {}) });
  return useQuery({
    queryKey: ["mail", "list", page, status ?? ""],
    queryFn: () => apiFetch<TMailList>(`${base}?${qs.toString()}`),
    refetchInterval: (q) => whileQueued(q.state.data?.messages.map((m) => m.status) ?? []),
  });
}

export function useMailMessage(id: string | null) {
  return useQuery({
    queryKey: ["mail", "message", id],
    queryFn: () => apiFetch<TMailDetail>(`${base}/${encodeURIComponent(id!)}`),
    enabled: id !== null,
    refetchInterval: (q) => whileQueued(q.state.data ? [q.state.data.status] : []),
  });
}

export function useSendTestMail() {
  return useMutation({ mutationFn: () => apiFetch<TMailSummary>(`${base}/test`, { method: "POST" }) });
}
