"use client";

import { useMutation, useQuery, useQueryClient, type QueryClient } from "@tanstack/react-query";
import { apiFetch } from "@/components/lib/api-client";
import type { TDeliveryStatus } from "@/server/db/schema/webhooks";
import type { TEventName } from "@/server/domain/webhooks/events/event-catalogue";
import type { checkDeliverySignature } from "@/server/domain/webhooks/health/check-delivery-signature";
import type { getDeliveryDetail } from "@/server/domain/webhooks/health/get-delivery-detail";
import type { getDeliveryLog } from "@/server/domain/webhooks/health/get-delivery-log";
import type { getEndpointChart } from "@/server/domain/webhooks/health/get-endpoint-chart";
import type { getEndpointSummary } from "@/server/domain/webhooks/health/get-endpoint-summary";
import type { getWebhookOverview } from "@/server/domain/webhooks/health/get-webhook-overview";
import type { listEndpointHealth } from "@/server/domain/webhooks/health/list-endpoint-health";
import type { replayDeliveries } from "@/server/domain/webhooks/health/replay-deliveries";
import type { sendTestEvent } from "@/server/domain/webhooks/events/send-test-event";
import type { createEndpoint } from "@/server/domain/webhooks/endpoints/create-endpoint";
import type { rotateEndpointSecret } from "@/server/domain/webhooks/endpoints/rotate-endpoint-secret";
import type { updateEndpoint } from "@/server/domain/webhooks/endpoints/update-endpoint";

type R<F extends (...args: never[]) => Promise<unknown>> = Awaited<ReturnType<F>>;
export type TDashboard = R<typeof listEndpointHealth>;
export type TOverview = R<typeof getWebhookOverview>;
export type TEndpointSummary = R<typeof getEndpointSummary>;
export type TChart = R<typeof getEndpointChart>;
export type TDeliveryLog = R<typeof getDeliveryLog>;
export type TDeliveryDetail = R<typeof getDeliveryDetail>;
export type TSignatureVerdict = R<typeof checkDeliverySignature>;
export type TCreatedEndpoint = R<typeof createEndpoint>;
export type TRotatedSecret = R<typeof rotateEndpointSecret>;
export type TLogFilters = { status?: TDeliveryStatus; event?: TEventName; page: number };
export type TRange = "24h" | "7d";

const base = "/api/app/webhooks";
const ep = (id: string) => `${base}/${encodeURIComponent(id)}`;

/** Every webhook query of the app, keyed by what it reads. */
export const webhookKeys = {
  all: ["webhooks"] as const,
  dashboard: () => [...webhookKeys.all, "dashboard"] as const,
  overview: () => [...webhookKeys.all, "overview"] as const,
  endpoint: (id: string) => [...webhookKeys.all, "endpoint", id] as const,
  summary: (id: string) => [...webhookKeys.endpoint(id), "summary"] as const,
  charts: (id: string) => [...webhookKeys.endpoint(id), "chart"] as const,
  chart: (id: string, range: TRange) => [...webhookKeys.charts(id), range] as const,
  logs: (id: string) => [...webhookKeys.endpoint(id), "log"] as const,
  log: (id: string, filters: TLogFilters) => [...webhookKeys.logs(id), filters] as const,
  deliveries: (id: string) => [...webhookKeys.endpoint(id), "delivery"] as const,
  delivery: (id: string, deliveryId: string) => [...webhookKeys.deliveries(id), deliveryId] as const,
};

/** Poll quickly while a first attempt is due, slowly while only retries wait, not at all otherwise. */
export function pollInterval(waiting: { pending: number; failed: number } | undefined): number | false {
  if (!waiting) return false;
  if (waiting.pending > 0) return 1000;
  return waiting.failed > 0 ? 5000 : false;
}

export function useDashboard() {
  return useQuery({
    queryKey: webhookKeys.dashboard(),
    queryFn: () => apiFetch<TDashboard>(base),
    refetchInterval: (q) => (q.state.data && q.state.data.pendingDeliveries > 0 ? 2000 : false),
  });
}

export function useOverview() {
  return useQuery({ queryKey: webhookKeys.overview(), queryFn: () => apiFetch<TOverview>(`${base}/overview`) });
}

export function useEndpointSummary(id: string, poll: number | false) {
  return useQuery({ queryKey: webhookKeys.summary(id), queryFn: () => apiFetch<TEndpointSummary>(ep(id)), refetchInterval: poll });
}

export function useEndpointChart(id: string, range: TRange, poll: number | false) {
  return useQuery({
    queryKey: webhookKeys.chart(id, range),
    queryFn: () => apiFetch<TChart>(`${ep(id)}/chart?range=${range}`),
    refetchInterval: poll === false ? false : Math.max(poll, 5000),
  });
}

export function useDeliveryLog(id: string, filters: TLogFilters) {
  const params = new URLSearchParams({ page: String(filters.page), pageSize: "20" });
  if (filters.status) params.set("status", filters.status);
  if (filters.event) params.set("event", filters.event);
  return useQuery({
    queryKey: webhookKeys.log(id, filters),
    queryFn: () => apiFetch<TDeliveryLog>(`${ep(id)}/deliveries?${params}`),
    refetchInterval: (q) => pollInterval(q.state.data?.waiting),
    placeholderData: (previous) => previous,
  });
}

export function useDeliveryDetail(id: string, deliveryId: string) {
  return useQuery({
    queryKey: webhookKeys.delivery(id, deliveryId),
    queryFn: () => apiFetch<TDeliveryDetail>(`${ep(id)}/deliveries/${encodeURIComponent(deliveryId)}`),
    refetchInterval: (q) => {
      const status = q.state.data?.status;
      return status === "PENDING" ? 1000 : status === "FAILED" ? 5000 : false;
    },
  });
}

/** What changes when an endpoint's deliveries or settings change: its page, the dashboard, the overview. */
function invalidateEndpoint(qc: QueryClient, id: string) {
  return Promise.all([
    qc.invalidateQueries({ queryKey: webhookKeys.endpoint(id) }),
    qc.invalidateQueries({ queryKey: webhookKeys.dashboard(), exact: true }),
    qc.invalidateQueries({ queryKey: webhookKeys.overview(), exact: true }),
  ]);
}

export type TCreateEndpointInput = { url: string; description: string; events: TEventName[] };

export function useCreateEndpoint() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (input: TCreateEndpointInput) => apiFetch<TCreatedEndpoint>(base, { method: "POST", body: input }),
    onSuccess: () =>
      Promise.all([
        qc.invalidateQueries({ queryKey: webhookKeys.dashboard(), exact: true }),
        qc.invalidateQueries({ queryKey: webhookKeys.overview(), exact: true }),
      ]),
  });
}

export type TUpdateEndpointInput = { url?: string; description?: string; events?: TEventName[]; enabled?: boolean };

export function useUpdateEndpoint(id: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (input: TUpdateEndpointInput) => apiFetch<R<typeof updateEndpoint>>(ep(id), { method: "PATCH", body: input }),
    onSuccess: () => invalidateEndpoint(qc, id),
  });
}

export function useRotateSecret(id: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: () => apiFetch<TRotatedSecret>(`${ep(id)}/rotate-secret`, { method: "POST" }),
    onSuccess: () => qc.invalidateQueries({ queryKey: webhookKeys.summary(id), exact: true }),
  });
}

export function useDeleteEndpoint(id: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: () => apiFetch<{ id: string; deleted: true }>(ep(id), { method: "DELETE" }),
    onSuccess: () => {
      qc.removeQueries({ queryKey: webhookKeys.endpoint(id) });
      return Promise.all([
        qc.invalidateQueries({ queryKey: webhookKeys.dashboard(), exact: true }),
        qc.invalidateQueries({ queryKey: webhookKeys.overview(), exact: true }),
      ]);
    },
  });
}

export function useSendTestEvent(id: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (event: TEventName) => apiFetch<R<typeof sendTestEvent>>(`${ep(id)}/test-events`, { method: "POST", body: { event } }),
    // Not awaited: the sender learns at once that the event is queued; the log catches up (and then polls).
    onSuccess: () => void invalidateEndpoint(qc, id),
  });
}

export type TReplayInput = { deliveryId: string } | { from: string; to: string };

export function useReplayDeliveries(id: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (input: TReplayInput) => apiFetch<R<typeof replayDeliveries>>(`${ep(id)}/deliveries/replay`, { method: "POST", body: input }),
    onSuccess: () => invalidateEndpoint(qc, id),
  });
}

/** Not cached: a check is an answer to one question, kept by the component that asked. */
export function useCheckSignature(id: string, deliveryId: string) {
  return useMutation({
    mutationFn: (input: { digest: string; attemptId?: string }) =>
      apiFetch<TSignatureVerdict>(`${ep(id)}/deliveries/${encodeURIComponent(deliveryId)}/check-signature`, { method: "POST", body: input }),
  });
}
