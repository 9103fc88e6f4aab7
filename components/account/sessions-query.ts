"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { apiFetch } from "@/components/lib/api-client";
import type { TJson } from "@/components/lib/json";
import type { TEndedMemberSession, TEndedOtherSessions, TMemberSession, TMyFailedSignIns } from "@/server/domain/member-sessions/schemas";

export type TSession = TJson<TMemberSession>;

export const sessionKeys = { list: ["me", "sessions"] as const };

export function useMySessions() {
  return useQuery({ queryKey: sessionKeys.list, queryFn: () => apiFetch<TSession[]>("/api/app/me/sessions") });
}

export function useEndSession() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (sessionId: string) =>
      apiFetch<TJson<TEndedMemberSession>>(`/api/app/me/sessions/${encodeURIComponent(sessionId)}/sign-out`, { method: "POST" }),
    // Refreshed either way: a 404 means it had ended already, and the list should say so.
    onSettled: () => queryClient.invalidateQueries({ queryKey: sessionKeys.list, exact: true }),
  });
}

export function useEndOtherSessions() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiFetch<TJson<TEndedOtherSessions>>("/api/app/me/sessions/sign-out-others", { method: "POST" }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: sessionKeys.list, exact: true }),
  });
}

export type TFailedSignIns = TJson<TMyFailedSignIns>;

export function useMyFailedSignIns() {
  return useQuery({ queryKey: ["me", "failed-sign-ins"], queryFn: () => apiFetch<TFailedSignIns>("/api/app/me/failed-sign-ins") });
}
