"use client";

import { useQuery } from "@tanstack/react-query";
import { apiFetch } from "@/components/lib/api-client";
import type { TActivityArea, TActivityList } from "@/server/domain/activity/schemas";

export type { TActivityArea, TActivityList };

export function useActivity(page: number, area: TActivityArea | undefined) {
  const qs = new URLSearchParams({ page: String(page), pageSize: "25", ...(area ? { area } : {}) });
  return useQuery({
    queryKey: ["activity", page, area ?? ""],
    queryFn: () => apiFetch<TActivityList>(`/api/app/activity?${qs.toString()}`),
  });
}
