import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { EndpointPage } from "@/components/webhooks/endpoint-page";
import { requireActorWhere } from "@/server/auth/session";
import { getDb } from "@/server/db/client";
import { can } from "@/server/domain/access/gates";
import { findEndpoint } from "@/server/domain/webhooks/endpoints/find-endpoint";
import { AppError } from "@/server/lib/errors";

export const metadata: Metadata = { title: "Webhook endpoint" };

/** 403 without the permission; 404 for an endpoint that is not in the current workspace of the member's organisation. */
export default async function WebhookEndpointPage({ params }: { params: Promise<{ endpointId: string }> }) {
  const actor = await requireActorWhere((a) => can(a, "canManageWebhooks"));
  const db = await getDb();
  const { endpointId } = await params;
  // Only "not found" is a 404; any other failure is a real error and must surface as one.
  const found = await findEndpoint(db, actor, endpointId).catch((err: unknown) => {
    if (err instanceof AppError && err.kind === "NOT_FOUND") return null;
    throw err;
  });
  if (!found) notFound();
  return <EndpointPage endpointId={endpointId} />;
}
