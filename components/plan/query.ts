"use client";

import { useQuery } from "@tanstack/react-query";
import { apiFetch } from "@/components/lib/api-client";
import type { TPlan } from "@/server/domain/organisation/schemas";

export const planKeys = {
  all: ["plan"] as const,
  detail: () => [...planKeys.all, "detail"] as const,
};

export function usePlan() {
  return useQuery({ queryKey: planKeys.detail(), queryFn: () => apiFetch<TPlan>("/api/app/plan") });
}
