import { Badge, type TBadgeTone } from "@/components/ui/badge";
import type { TDeliveryStatus } from "@/server/db/schema/webhooks";
import type { TEndpointState } from "@/server/domain/webhooks/health/failing";

const STATE_TONE: Record<TEndpointState, TBadgeTone> = { ACTIVE: "success", PAUSED: "neutral", FAILING: "danger" };
/** The spec's displayed names of the engine's states: the only place they are spelled this way. */
export const STATE_LABEL: Record<TEndpointState, string> = { ACTIVE: "Active", PAUSED: "Paused", FAILING: "Failing" };
const STATUS_TONE: Record<TDeliveryStatus, TBadgeTone> = { PENDING: "brand", DELIVERED: "success", FAILED: "warning", EXHAUSTED: "danger" };

export function EndpointStateBadge({ state }: { state: TEndpointState }) {
  return <Badge tone={STATE_TONE[state]}>{STATE_LABEL[state]}</Badge>;
}

export function DeliveryStatusBadge({ status }: { status: TDeliveryStatus }) {
  return <Badge tone={STATUS_TONE[status]}>{status}</Badge>;
}
