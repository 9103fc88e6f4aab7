import { Badge, type TBadgeTone } from "@/components/ui/badge";
import type { TDeliveryStatus } from "@/server/db/schema/webhooks";
import type { TEndpointState } from "@/server/domain/webhook-health/endpoint-state";

const STATE_TONE: Record<TEndpointState, TBadgeTone> = { Active: "success", Paused: "neutral", Failing: "danger" };
const STATUS_TONE: Record<TDeliveryStatus, TBadgeTone> = { PENDING: "brand", DELIVERED: "success", FAILED: "warning", EXHAUSTED: "danger" };

export function EndpointStateBadge({ state }: { state: TEndpointState }) {
  return <Badge tone={STATE_TONE[state]}>{state}</Badge>;
}

export function DeliveryStatusBadge({ status }: { status: TDeliveryStatus }) {
  return <Badge tone={STATUS_TONE[status]}>{status}</Badge>;
}
