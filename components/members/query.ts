"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { apiFetch } from "@/components/lib/api-client";
import type { TJson } from "@/components/lib/json";
import { roleKeys } from "@/components/roles/query";
import type { TMemberSession } from "@/server/domain/member-sessions/schemas";
import type { TAcceptInvite, TAddedMember, TAddMember, TMemberItem, TPasswordLink } from "@/server/domain/organisation/schemas";

export type TMember = TJson<TMemberItem>;
export type TNewMember = TJson<TAddedMember>;

export const memberKeys = {
  all: ["members"] as const,
  list: () => [...memberKeys.all, "list"] as const,
};

export function useMembers() {
  return useQuery({ queryKey: memberKeys.list(), queryFn: () => apiFetch<TMember[]>("/api/app/members") });
}

/** Members changed: the list, and the roles list's member counts. */
function useInvalidateMembers() {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: memberKeys.list(), exact: true }),
      queryClient.invalidateQueries({ queryKey: roleKeys.list(), exact: true }),
    ]);
}

export function useAddMember() {
  const invalidate = useInvalidateMembers();
  return useMutation({
    mutationFn: (input: TAddMember) => apiFetch<TNewMember>("/api/app/members", { method: "POST", body: input }),
    onSuccess: invalidate,
  });
}

export function useChangeMemberRole() {
  const invalidate = useInvalidateMembers();
  return useMutation({
    mutationFn: ({ userId, roleId }: { userId: string; roleId: string }) =>
      apiFetch(`/api/app/members/${encodeURIComponent(userId)}`, { method: "PATCH", body: { roleId } }),
    onSuccess: invalidate,
  });
}

export function useRemoveMember() {
  const invalidate = useInvalidateMembers();
  return useMutation({
    mutationFn: (userId: string) => apiFetch(`/api/app/members/${encodeURIComponent(userId)}`, { method: "DELETE" }),
    onSuccess: invalidate,
  });
}

const memberSessionsKey = (userId: string) => [...memberKeys.all, "sessions", userId] as const;

/** Where a member is signed in (the owner's Sessions dialog); nothing is read while no member is chosen. */
export function useMemberSessions(userId: string | null) {
  return useQuery({
    queryKey: memberSessionsKey(userId ?? ""),
    queryFn: () => apiFetch<TJson<TMemberSession>[]>(`/api/app/members/${encodeURIComponent(userId!)}/sessions`),
    enabled: userId !== null,
  });
}

/** The owner signs a member out everywhere: the answer says how many sessions ended. */
export function useEndMemberSessions() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (userId: string) => apiFetch<{ ended: number }>(`/api/app/members/${encodeURIComponent(userId)}/sessions/sign-out`, { method: "POST" }),
    onSettled: (_res, _err, userId) => queryClient.invalidateQueries({ queryKey: memberSessionsKey(userId) }),
  });
}

/** The owner signs a member out of one session; the list of their sessions is read again either way. */
export function useEndMemberSession() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ userId, sessionId }: { userId: string; sessionId: string }) =>
      apiFetch<{ id: string; ended: true }>(`/api/app/members/${encodeURIComponent(userId)}/sessions/${encodeURIComponent(sessionId)}/sign-out`, {
        method: "POST",
      }),
    onSettled: (_res, _err, { userId }) => queryClient.invalidateQueries({ queryKey: memberSessionsKey(userId) }),
  });
}

/** The owner's one-time link for a member: a password reset, or a new invitation (it replaces the pending one). */
export function useIssuePasswordLink() {
  const invalidate = useInvalidateMembers();
  return useMutation({
    mutationFn: (userId: string) => apiFetch<TJson<TPasswordLink>>(`/api/app/members/${encodeURIComponent(userId)}/password-link`, { method: "POST" }),
    onSuccess: invalidate,
  });
}

export function useAcceptInvite(token: string) {
  return useMutation({
    mutationFn: (input: Omit<TAcceptInvite, "token">) =>
      apiFetch<{ userId: string; email: string; purpose: "invite" | "reset" }>(`/api/app/invites/${encodeURIComponent(token)}/accept`, {
        method: "POST",
        body: input,
      }),
  });
}
